/**
 * The ADVANCED Drive service (global `Drive`, Drive API v3), enough for saving a download:
 * `Drive.Files.create(resource, blob?, optionalArgs?)` and `Drive.Files.get(id, optionalArgs?)`.
 *
 * Google's rules modelled (developers.google.com/apps-script/advanced/drive, /manifest/dependencies,
 * the Drive API v3 reference of files.create / files.get):
 * - The global exists only when the manifest enables it: `dependencies.enabledAdvancedServices`
 *   holds `{userSymbol, serviceId: 'drive', version: 'v3'}`; the global is named by `userSymbol`.
 *   Without it a script gets `ReferenceError: Drive is not defined` (the global is simply absent).
 * - Each method needs one of its scopes in the manifest's `oauthScopes` (when the manifest lists
 *   scopes explicitly): files.create takes `drive`, `drive.appdata` or `drive.file`. Missing, the
 *   API answers 403 "Request had insufficient authentication scopes." (the Drive API's words), thrown
 *   as a GoogleJsonResponseException "API call to drive.files.create failed with error: …" (the
 *   wording of Apps Script's advanced services in public reports; chosen).
 * - Like DriveApp, it needs an authorised execution: refused in NONE, LIMITED and CUSTOM_FUNCTION
 *   with "You do not have permission to call Drive service." (chosen, as for DriveApp).
 * - v3 answers only `kind, id, name, mimeType` unless `fields` asks for more (`webViewLink`, `size`,
 *   `*`), so a caller that needs the link must ask for it.
 *
 * Files land in the same DriveStore as DriveApp's (Runtime.drive), so tests read the bytes there.
 */
import type { RuntimeState } from './execution';
import { gasError, isPlainObject, toRealm } from './realm';
import { permissionMessage } from './permissions';
import { scopeRule } from './scopes';
import { isBlob } from './blob';
import { type DriveStore, type DriveFileRecord, driveFileUrl, storeDriveFile } from './drive';

export interface AdvancedServiceEntry {
  userSymbol?: string;
  serviceId?: string;
  version?: string;
}

/**
 * The global name under which the manifest enables the Drive API v3, or null when it does not
 * (then the script has no such global). Only v3 is modelled: a v2 entry also yields null.
 */
export function enabledDriveSymbol(manifest: { [key: string]: unknown }): string | null {
  const deps = manifest.dependencies as { enabledAdvancedServices?: AdvancedServiceEntry[] } | undefined;
  const list = deps && Array.isArray(deps.enabledAdvancedServices) ? deps.enabledAdvancedServices : [];
  const e = list.find((s) => s && s.serviceId === 'drive' && s.version === 'v3' && typeof s.userSymbol === 'string');
  return e ? e.userSymbol! : null;
}

const DEFAULT_FIELDS = ['kind', 'id', 'name', 'mimeType'];

/** The File resource of a record, cut to `fields` (v3's default when absent; `*` = all modelled). */
function resource(rec: DriveFileRecord, fields: unknown): Record<string, unknown> {
  const all: Record<string, unknown> = {
    kind: 'drive#file',
    id: rec.id,
    name: rec.name,
    mimeType: rec.mimeType,
    size: String(rec.data.length),
    webViewLink: driveFileUrl(rec.id),
    createdTime: new Date(rec.created).toISOString(),
    trashed: rec.trashed,
  };
  const wanted =
    typeof fields === 'string' && fields.trim()
      ? fields.trim() === '*'
        ? Object.keys(all)
        : fields.split(',').map((f) => f.trim())
      : DEFAULT_FIELDS;
  const out: Record<string, unknown> = {};
  for (const f of wanted) if (f in all) out[f] = all[f];
  return out;
}

export interface AdvancedDriveOptions {
  /** The manifest's explicit oauthScopes, or null when it sets none (Google then infers them). */
  scopes: readonly string[] | null;
}

/** The `Drive` global: `Drive.Files.create` and `Drive.Files.get`. */
export function createAdvancedDrive(state: RuntimeState, store: DriveStore, opts: AdvancedDriveOptions) {
  const apiError = (method: string, message: string) => {
    const e = gasError(state, `API call to drive.files.${method} failed with error: ${message}`);
    e.name = 'GoogleJsonResponseException';
    return e;
  };
  const use = (method: 'create' | 'get') => {
    const e = state.exec();
    state.checkLimit();
    if (e.authMode !== 'FULL') throw gasError(state, permissionMessage('Drive'));
    state.serviceCall();
    // The scopes are the one table's (scopes.ts); the API, not Apps Script, answers a missing one.
    const needed = scopeRule('Drive.Files.' + method)!.anyOf;
    // The token carries what this user granted of the manifest's scopes (granular consent).
    const granted = opts.scopes ? (state.grants.get(e.user) ?? new Set(opts.scopes)) : null;
    if (opts.scopes && !needed.some((s) => opts.scopes!.includes(s) && granted!.has(s)))
      throw apiError(method, 'Request had insufficient authentication scopes.');
  };
  const Files = {
    create(meta: unknown, media?: unknown, optionalArgs?: unknown): Record<string, unknown> {
      use('create');
      const m = isPlainObject(meta) ? meta : {};
      if (media !== undefined && media !== null && !isBlob(media)) throw gasError(state, 'Invalid argument: mediaData');
      const name = typeof m.name === 'string' && m.name ? m.name : 'Untitled';
      const blob = media && isBlob(media) ? media : null;
      const mimeType = typeof m.mimeType === 'string' && m.mimeType ? m.mimeType : (blob?.getContentType() ?? 'application/octet-stream');
      const rec = storeDriveFile(state, store, name, blob ? Buffer.from(blob._data) : Buffer.alloc(0), mimeType);
      const args = isPlainObject(optionalArgs) ? optionalArgs : {};
      return toRealm(state.realm, resource(rec, args.fields));
    },
    get(fileId: unknown, optionalArgs?: unknown): Record<string, unknown> {
      use('get');
      const rec = store.files.get(String(fileId));
      // drive.file sees only files this app made; the store holds only those. (chosen)
      if (!rec) throw apiError('get', `File not found: ${String(fileId)}.`);
      const args = isPlainObject(optionalArgs) ? optionalArgs : {};
      return toRealm(state.realm, resource(rec, args.fields));
    },
  };
  return { Files };
}
