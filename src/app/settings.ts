/**
 * Settings: the sidebar's getSettings / saveSettings / testConnection, and their pure rules
 * (address validation, key masking, what a failed connection test means).
 *
 * Decisions:
 * - The key is stored per user in user properties (settings-store.ts) and leaves it only in the
 *   Authorization header of calls. The view shows it masked: 8 bullets and, for keys of 12 or more
 *   characters, the last 4 characters (a shorter key would be half given away by 4 characters).
 * - Service address: https only, except plain http for loopback addresses (localhost, 127.x.x.x,
 *   [::1]) — the key travels in a header, so http anywhere else would send it in clear text. Loopback
 *   is only reachable by a local runtime (Google's servers fetch from the internet), which is what it
 *   is for. No user:password@, query or fragment. Trailing slashes and a pasted "/api/v3" are removed
 *   (the client adds /api/v3/...). Google additionally refuses addresses outside the manifest's
 *   urlFetchWhitelist; that is the deployment's list (addon.config.json).
 * - Test connection: ONE POST /api/v3/asin-convert of one well-formed ASIN for the default
 *   marketplace. It needs the key (401 = bad key) and access to that marketplace (403), costs the
 *   service one lookup, and has no side effects. Two attempts at most, within 20 s: the user waits.
 */
import { requestJson, type ServiceSettings } from '../api/client';
import { ApiProblemError, type Problem } from '../api/problems';
import { DEFAULT_RETRY_POLICY } from '../api/retry';
import { findMarketplace, MARKETPLACES } from '../../contract/marketplaces';
import { formulaSharePropertyName } from '../formulas/key';
import type { ConnectionResult, MarketplaceOption, SettingsInput, SettingsView } from './protocol';
import { FALLBACK_MARKETPLACE, type StoredSettings } from './settings-store';
import { activeSpreadsheet, activeUserEmail, asSidebarCall, clientDeps, loadSettings, now, storeSettings, userProperties } from './gas';

// ---- Pure rules --------------------------------------------------------------------------------

export const MASK = '••••••••';

/** The key as the sidebar shows it. */
export function maskKey(key: string): string {
  if (!key) return '';
  return key.length >= 12 ? MASK + key.slice(-4) : MASK;
}

export type AddressCheck = { ok: true; url: string } | { ok: false; message: string };

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** Validates and normalises a service address typed in Settings (see the module comment). */
export function checkServiceUrl(input: string): AddressCheck {
  const text = String(input == null ? '' : input).trim();
  const bad = (why: string): AddressCheck => ({ ok: false, message: 'The service address "' + text.slice(0, 100) + '" ' + why });
  if (!text) return { ok: false, message: 'Enter the service address, e.g. https://app.example.com.' };
  const m = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)(.*)$/i.exec(text);
  if (!m) return bad('is not a web address: it must start with https://');
  const scheme = m[1].toLowerCase();
  const authority = m[2];
  let path = m[3];
  if (m[4]) return bad('must not have a query (?...) or fragment (#...).');
  if (authority.indexOf('@') >= 0) return bad('must not contain a user name or password.');
  const hm = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:(\d{1,5}))?$/i.exec(authority);
  if (!hm || (hm[3] !== undefined && (Number(hm[3]) < 1 || Number(hm[3]) > 65535))) return bad('has no valid host name.');
  const host = hm[1].toLowerCase();
  if (!/^\[/.test(host) && (host.indexOf('.') < 0 && host !== 'localhost')) return bad('has no valid host name.');
  if (/\s/.test(path) || /[<>"{}|\\^`]/.test(path)) return bad('contains characters that are not allowed in an address.');
  if (scheme === 'http') {
    if (!LOOPBACK.test(host)) return bad('must use https:// (plain http would send the API key unencrypted; it is allowed only for this computer, e.g. http://localhost:8787).');
  } else if (scheme !== 'https') return bad('must start with https://');
  path = path.replace(/\/+$/, '').replace(/\/api(\/v3)?$/i, '');
  return { ok: true, url: scheme + '://' + host + (hm[3] ? ':' + hm[3] : '') + path };
}

export function marketplaceOptions(): MarketplaceOption[] {
  return MARKETPLACES.map((m) => ({ code: m.code, name: m.name }));
}

export interface SettingsChange {
  next: StoredSettings;
  /** Key, address or marketplace changed: what a formula share carries. */
  keyChanged: boolean;
}

/**
 * Applies what the user typed to the stored settings, or throws an Error with what to fix. A blank
 * key keeps the saved one; a key pasted with spaces or "Bearer " in front is trimmed.
 */
export function applySettingsInput(current: StoredSettings, input: SettingsInput, defaultServiceUrl: string): SettingsChange {
  const next: StoredSettings = { ...current };
  const problems: string[] = [];
  if (input && typeof input.apiKey === 'string' && input.apiKey.trim() !== '') {
    const key = input.apiKey.trim().replace(/^bearer\s+/i, '');
    if (/\s/.test(key) || key.length < 8 || key.length > 512) problems.push('That does not look like an API key (8 to 512 characters, no spaces). Copy it again from Integrations > API Access.');
    else next.apiKey = key;
  }
  if (input && input.serviceUrl !== undefined && input.serviceUrl !== null) {
    const typed = String(input.serviceUrl).trim();
    const check = checkServiceUrl(typed === '' ? defaultServiceUrl : typed);
    if (check.ok) next.serviceUrl = check.url;
    else problems.push(check.message);
  }
  if (input && input.defaultMarketplace !== undefined && input.defaultMarketplace !== null && String(input.defaultMarketplace).trim() !== '') {
    const m = findMarketplace(String(input.defaultMarketplace).trim());
    if (m) next.marketplace = m.code;
    else problems.push('Unknown marketplace "' + String(input.defaultMarketplace).slice(0, 20) + '".');
  }
  if (problems.length) throw new Error(problems.join(' '));
  return { next, keyChanged: next.apiKey !== current.apiKey || next.serviceUrl !== current.serviceUrl || next.marketplace !== current.marketplace };
}

/** What the connection test's problem means for the user. */
export function connectionResult(problem: Problem | null, s: StoredSettings): ConnectionResult {
  const where = s.serviceUrl;
  const market = findMarketplace(s.marketplace);
  const marketName = market ? market.name + ' (' + market.code + ')' : s.marketplace;
  if (!problem) return { ok: true, message: 'Connected to ' + where + ': the key works and has access to ' + marketName + '.' };
  switch (problem.kind) {
    case 'no-key':
      return { ok: false, problem: 'no-key', message: 'No API key is saved yet. Paste the key from Integrations > API Access and save.' };
    case 'auth':
      return { ok: false, problem: 'bad-key', message: 'The Scan Service at ' + where + ' refused the API key (401). Copy the key again from Integrations > API Access and save it.' };
    case 'forbidden':
      return {
        ok: false,
        problem: 'no-marketplace-access',
        message: 'The key works, but the account has no access to the default marketplace ' + marketName + ' (403). Choose a marketplace your plan includes, or add it to your account.',
      };
    case 'unreachable':
    case 'timeout':
      return { ok: false, problem: 'unreachable', message: 'Could not reach ' + where + ' (' + (problem.kind === 'timeout' ? 'no answer in time' : problem.serviceMessage || 'no connection') + '). Check the service address and your connection.' };
    case 'redirect':
    case 'not-found':
      return { ok: false, problem: 'bad-address', message: where + ' does not answer like the Scan Service (' + (problem.status || '') + '). ' + problem.message };
    case 'rate-limited':
      return { ok: false, problem: 'busy', message: 'The Scan Service is busy right now (429), but the address answered. Try again in a minute.' };
    case 'server':
      return { ok: false, problem: 'service-error', message: 'The Scan Service at ' + where + ' had a problem (error ' + problem.status + '). Try again later.' };
    default:
      return { ok: false, problem: problem.kind, message: problem.message };
  }
}

/** A well-formed ASIN that costs the service one lookup (found or not, both are a 200). */
export const PROBE_ASIN = 'B000000000';

// ---- Server functions --------------------------------------------------------------------------

function spreadsheetIdOrNull(): string | null {
  try {
    return activeSpreadsheet().getId();
  } catch (_e) {
    return null;
  }
}

function isOwner(): boolean {
  try {
    const me = activeUserEmail();
    const owner = activeSpreadsheet().getOwner();
    return !!me && !!owner && owner.getEmail() === me;
  } catch (_e) {
    return false;
  }
}

/**
 * Whether this user has shared their key with the formulas of this spreadsheet (issue 5's
 * setting; the share record is src/formulas/key.ts's). Only the owner's share counts.
 */
function formulaKeyShared(): boolean {
  const id = spreadsheetIdOrNull();
  if (!id) return false;
  return userProperties().getProperty(formulaSharePropertyName(id)) !== null;
}

export function settingsView(s: StoredSettings): SettingsView {
  const owner = isOwner();
  return {
    apiKeyMasked: maskKey(s.apiKey),
    hasApiKey: !!s.apiKey,
    serviceUrl: s.serviceUrl,
    defaultMarketplace: s.marketplace || FALLBACK_MARKETPLACE,
    marketplaces: marketplaceOptions(),
    formulaKeyShared: owner && formulaKeyShared(),
    isOwner: owner,
  };
}

/** Sidebar: the current user's settings (key masked). */
export function getSettings(): SettingsView {
  return asSidebarCall(() => settingsView(loadSettings()));
}

/**
 * Sidebar: saves what the user changed. When the key, address or default marketplace changes, every
 * formula share of this user (one per spreadsheet where sharing is on, src/formulas/key.ts) is
 * rewritten with them, so no formula keeps using a key the user replaced.
 */
export function saveSettings(input: SettingsInput): SettingsView {
  return asSidebarCall(() => {
    const current = loadSettings();
    const change = applySettingsInput(current, input || {}, ADDON_DEFAULT_SERVICE_URL);
    storeSettings(change.next);
    if (change.keyChanged && current.apiKey) rewriteFormulaShares(change.next);
    return settingsView(change.next);
  });
}

function rewriteFormulaShares(s: StoredSettings): void {
  const props = userProperties();
  const all = props.getProperties();
  const prefix = formulaSharePropertyName('');
  const updates: { [k: string]: string } = {};
  for (const k of Object.keys(all)) {
    if (k.indexOf(prefix) !== 0) continue;
    try {
      const share = JSON.parse(all[k]);
      if (share && typeof share === 'object') updates[k] = JSON.stringify({ ...share, apiKey: s.apiKey, baseUrl: s.serviceUrl, marketplace: s.marketplace });
    } catch (_e) {
      // An unreadable share is left for the formulas' own reader to refuse.
    }
  }
  if (Object.keys(updates).length) props.setProperties(updates);
}

/**
 * Sidebar: one cheap authenticated call; says plainly what works or what is wrong. With `input`,
 * tests what the user typed (key, address, marketplace) WITHOUT saving it, so testing a mistyped
 * key never replaces the good one; an input the settings would refuse is refused the same way.
 */
export function testConnection(input?: SettingsInput | null): ConnectionResult {
  const saved = loadSettings();
  const s = input ? applySettingsInput(saved, input, ADDON_DEFAULT_SERVICE_URL).next : saved;
  if (!s.apiKey) return connectionResult({ kind: 'no-key', message: '' }, s);
  const service: ServiceSettings = { baseUrl: s.serviceUrl, apiKey: s.apiKey };
  try {
    requestJson(service, clientDeps(), { method: 'post', path: '/api/v3/asin-convert', body: { marketplace: s.marketplace, asins: [PROBE_ASIN] }, subject: 'marketplace ' + s.marketplace }, {
      deadline: now() + 20_000,
      policy: { ...DEFAULT_RETRY_POLICY, maxAttempts: 2 },
    });
    return connectionResult(null, s);
  } catch (e) {
    if (e instanceof ApiProblemError) return connectionResult(e.problem, s);
    throw e;
  }
}
