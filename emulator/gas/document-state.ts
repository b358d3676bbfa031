/**
 * What Google keeps for a document from one opening to the next, beyond its cells, as the runtime
 * saves it in the document's .xlsx (spreadsheet/xlsx.ts writes it into a custom XML part) and takes
 * it back from a loaded one. Two kinds, kept apart:
 *
 * - Google's document state: the document properties, whether the add-on has been used in this
 *   document (its custom functions known, onOpen in LIMITED), and the installable triggers bound to
 *   the document (Google keeps them in each user's script project, the document as their source).
 * - A stand-in for Google's per-user store: the user properties of each user who used the add-on in
 *   this runtime, by email. Google keeps them per user per script, outside any document; a runtime
 *   in another process has no such store, so they travel in the file. Never a credential: a JSON
 *   field whose name ends in apiKey, secret, token or password is emptied, and a property that still
 *   holds such a value anywhere is left out (chosen, README). The user enters the key again, as the
 *   runners and the playground do when they open a document.
 *
 * Not kept, as Google does not keep them past an opening: caches, locks, the virtual clock's
 * executions. Script properties are the script's, not the document's: not kept either.
 */
import type { PropertyStores } from './properties';
import type { TriggerRecord, TriggerTable } from './triggers';

export interface DocumentState {
  v: 1;
  usedInDocument: boolean;
  documentProperties: Record<string, string> | null;
  triggers: TriggerRecord[];
  /** The stand-in for Google's per-user store, by user, credentials taken out. */
  userProperties: Record<string, Record<string, string>>;
  /**
   * The scopes each user granted, where they granted only some (Google keeps a user's consent per
   * script, not per file: the stand-in travels with the file like the user properties). Without
   * it, a reopened file would count every user as having granted everything: kinder than Google.
   */
  grants: Record<string, string[]>;
}

/** The parts of a runtime the state is taken from and given back to. */
export interface StateHolder {
  documentId: string;
  usedInDocument: boolean;
  properties: PropertyStores;
  triggers: TriggerTable;
  /** Users who granted only some scopes (a user not listed granted them all). */
  grants: Map<string, ReadonlySet<string>>;
}

/** A JSON field that holds a credential (the add-on's API key is `apiKey`). */
const CREDENTIAL_FIELD = /(api_?key|secret|token|password)$/i;

/** The document's state as it goes into the file. */
export function documentStateOf(h: StateHolder): DocumentState {
  const userProperties: Record<string, Record<string, string>> = {};
  for (const [user, store] of h.properties.users()) {
    const kept = withoutCredentials(store.toObject());
    if (Object.keys(kept).length) userProperties[user] = kept;
  }
  return {
    v: 1,
    usedInDocument: h.usedInDocument,
    documentProperties: h.properties.document ? h.properties.document.toObject() : null,
    // Only the triggers whose source is this document; a copy, so later runs do not change a snapshot.
    triggers: h.triggers.records.filter((t) => t.sourceId === h.documentId).map((t) => ({ ...t })),
    userProperties,
    grants: Object.fromEntries([...h.grants].map(([u, scopes]) => [u, [...scopes].sort()])),
  };
}

/** Gives a new runtime the state a loaded file carried (nothing when the file has none). */
export function restoreDocumentState(h: StateHolder, loaded: unknown): { usedInDocument: boolean } {
  const s = readState(loaded);
  if (!s) return { usedInDocument: false };
  if (h.properties.document && s.documentProperties)
    for (const [k, v] of Object.entries(s.documentProperties)) h.properties.document.set(k, v);
  for (const [user, props] of Object.entries(s.userProperties)) {
    const store = h.properties.user(user);
    for (const [k, v] of Object.entries(props)) store.set(k, v);
  }
  for (const t of s.triggers) if (t.sourceId === h.documentId) h.triggers.records.push({ ...t });
  // A grant the runtime was given explicitly (its options) stands; the file's fills in the others.
  for (const [user, scopes] of Object.entries(s.grants)) if (!h.grants.has(user)) h.grants.set(user, new Set(scopes));
  return { usedInDocument: s.usedInDocument };
}

function readState(x: unknown): DocumentState | null {
  if (!x || typeof x !== 'object' || (x as { v?: unknown }).v !== 1) return null;
  const s = x as Partial<DocumentState>;
  const strings = (o: unknown): Record<string, string> =>
    Object.fromEntries(Object.entries(o && typeof o === 'object' ? o : {}).filter(([, v]) => typeof v === 'string'));
  return {
    v: 1,
    usedInDocument: s.usedInDocument === true,
    documentProperties: s.documentProperties ? strings(s.documentProperties) : null,
    triggers: Array.isArray(s.triggers) ? s.triggers.filter(isTrigger) : [],
    userProperties: Object.fromEntries(Object.entries(s.userProperties ?? {}).map(([u, p]) => [u, strings(p)])),
    grants: Object.fromEntries(
      Object.entries(s.grants ?? {})
        .filter(([, list]) => Array.isArray(list))
        .map(([u, list]) => [u, (list as unknown[]).filter((x): x is string => typeof x === 'string')]),
    ),
  };
}

function isTrigger(t: unknown): t is TriggerRecord {
  const r = t as TriggerRecord;
  return !!r && typeof r.uid === 'string' && typeof r.handler === 'string' && typeof r.user === 'string' && typeof r.sourceId === 'string';
}

/** A user's properties without any credential: fields emptied, and any value still holding one left out. */
export function withoutCredentials(props: Record<string, string>): Record<string, string> {
  const secrets = new Set<string>();
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(props)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(v);
    } catch {
      out[k] = v;
      continue;
    }
    out[k] = emptyCredentials(parsed, secrets) ? JSON.stringify(parsed) : v;
  }
  for (const [k, v] of Object.entries(out)) if ([...secrets].some((s) => v.includes(s))) delete out[k];
  return out;
}

/** Empties credential fields in place, collecting their values; whether any was found. */
function emptyCredentials(x: unknown, secrets: Set<string>): boolean {
  if (!x || typeof x !== 'object') return false;
  let found = false;
  for (const [k, v] of Object.entries(x as Record<string, unknown>)) {
    if (typeof v === 'string' && v !== '' && CREDENTIAL_FIELD.test(k)) {
      secrets.add(v);
      (x as Record<string, unknown>)[k] = '';
      found = true;
    } else if (emptyCredentials(v, secrets)) found = true;
  }
  return found;
}
