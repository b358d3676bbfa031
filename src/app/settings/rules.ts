/**
 * Settings' pure rules: how the key is shown, which service addresses are accepted, what saving
 * input changes, and what a connection test's problem means to the user (decisions in settings.ts).
 */
import { waitText, type Problem } from '../../api/problems';
import { findMarketplace, MARKETPLACES } from '../../../contract/marketplaces';
import type { ConnectionResult, MarketplaceOption, SettingsInput } from './protocol';
import { type StoredSettings } from '../../store/settings';

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
  if (!/^\[/.test(host) && host.indexOf('.') < 0 && host !== 'localhost') return bad('has no valid host name.');
  if (/\s/.test(path) || /[<>"{}|\\^`]/.test(path)) return bad('contains characters that are not allowed in an address.');
  if (scheme === 'http') {
    if (!LOOPBACK.test(host))
      return bad(
        'must use https:// (plain http would send the API key unencrypted; it is allowed only for this computer, e.g. http://localhost:8787).',
      );
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
    if (/\s/.test(key) || key.length < 8 || key.length > 512)
      problems.push('That does not look like an API key (8 to 512 characters, no spaces). Copy it again from Integrations > API Access.');
    else next.apiKey = key;
  }
  if (input && input.serviceUrl !== undefined && input.serviceUrl !== null) {
    const typed = String(input.serviceUrl).trim();
    const check = checkServiceUrl(typed === '' ? defaultServiceUrl : typed);
    if (check.ok) next.serviceUrl = check.url;
    else problems.push(check.message);
  }
  if (
    input &&
    input.defaultMarketplace !== undefined &&
    input.defaultMarketplace !== null &&
    String(input.defaultMarketplace).trim() !== ''
  ) {
    const m = findMarketplace(String(input.defaultMarketplace).trim());
    if (m) next.marketplace = m.code;
    else problems.push('Unknown marketplace "' + String(input.defaultMarketplace).slice(0, 20) + '".');
  }
  if (problems.length) throw new Error(problems.join(' '));
  return {
    next,
    keyChanged: next.apiKey !== current.apiKey || next.serviceUrl !== current.serviceUrl || next.marketplace !== current.marketplace,
  };
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
      return {
        ok: false,
        problem: 'bad-key',
        message:
          'The Scan Service at ' + where + ' refused the API key (401). Copy the key again from Integrations > API Access and save it.',
      };
    case 'forbidden':
      return {
        ok: false,
        problem: 'no-marketplace-access',
        message:
          'The key works, but the account has no access to the default marketplace ' +
          marketName +
          ' (403). Choose a marketplace your plan includes, or add it to your account.',
      };
    case 'unreachable':
    case 'timeout':
      // Blamed on the address only when its host does not exist (or Google may not call it); else the service is not answering.
      return {
        ok: false,
        problem: 'unreachable',
        message: problem.blocked
          ? problem.message
          : problem.noSuchHost
            ? 'Could not find ' + where + ' (' + (problem.serviceMessage || 'DNS error') + '). Check the service address.'
            : 'The Scan Service at ' +
              where +
              ' is not answering (' +
              (problem.kind === 'timeout' ? 'no answer in time' : problem.serviceMessage || 'no connection') +
              '): it may be down for a moment. Test again in a few minutes.',
      };
    case 'redirect':
    case 'not-found':
      return {
        ok: false,
        problem: 'bad-address',
        message: where + ' does not answer like the Scan Service (' + (problem.status || '') + '). ' + problem.message,
      };
    case 'rate-limited':
      return {
        ok: false,
        problem: 'busy',
        message:
          'The Scan Service is busy right now (429), but the address answered. ' +
          (problem.retryAfterMs !== undefined
            ? `It asked to wait ${waitText(problem.retryAfterMs)}; test again after that.`
            : 'Try again in a minute.'),
      };
    case 'server':
      return {
        ok: false,
        problem: 'service-error',
        message: 'The Scan Service at ' + where + ' had a problem (error ' + problem.status + '). Try again later.',
      };
    default:
      return { ok: false, problem: problem.kind, message: problem.message };
  }
}

/** A well-formed ASIN that costs the service one lookup (found or not, both are a 200). */
export const PROBE_ASIN = 'B000000000';
