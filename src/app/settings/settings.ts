/**
 * Settings: the sidebar's getSettings / saveSettings / testConnection; their pure rules (address
 * validation, key masking, what a failed connection test means) are in rules.ts.
 *
 * Decisions:
 * - The key is stored per user in user properties (src/store/settings.ts) and leaves it only in the
 *   Authorization header of calls. The view shows it masked: 8 bullets and, for keys of 12 or more
 *   characters, the last 4 characters (a shorter key would be half given away by 4 characters).
 * - Service address: https only, except plain http for loopback addresses (localhost, 127.x.x.x,
 *   [::1]) — the key travels in a header, so http anywhere else would send it in clear text. Loopback
 *   is only reachable by a local runtime (Google's servers fetch from the internet), which is what it
 *   is for. No user:password@, query or fragment. Trailing slashes and a pasted "/api/v3" are removed
 *   (the client adds /api/v3/...). Google additionally refuses addresses outside the manifest's
 *   urlFetchWhitelist; that is the deployment's list (addon.config.json).
 * - Save from the sidebar checks first (`check`): the same probe as Test connection, when the key,
 *   address or marketplace changes. A new key the service refuses (401) is not saved, so a mistyped
 *   key never replaces a good one. Anything else (the service down or busy, no access to the
 *   marketplace) cannot tell the key is wrong: the settings are saved and the view says what the
 *   check found (`checked`).
 * - Test connection: ONE POST /api/v3/asin-convert of one well-formed ASIN for the default
 *   marketplace. It needs the key (401 = bad key) and access to that marketplace (403), costs the
 *   service one lookup, and has no side effects. Two attempts at most, within 20 s: the user waits.
 */
import type { ServiceSettings } from '../../api/client';
import { PROBE_BUDGET_MS } from '../../domain/time-budgets';
import { probeAsinConvert } from '../../api/convert';
import { problemOf } from '../../api/exceptions';
import { DEFAULT_RETRY_POLICY } from '../../api/retry';
import { FORMULA_SHARE, formulaSharePropertyName } from '../../custom-functions/key';
import type { ConnectionResult, SettingsInput, SettingsView } from './protocol';
import { FALLBACK_MARKETPLACE, type StoredSettings } from '../../store/settings';
import { applySettingsInput, connectionResult, marketplaceOptions, maskKey, PROBE_ASIN } from './rules';
import { settingsHelp } from './help';
import { formulaNote, formulaOwnership, mayShare, shareRefusal, writeFormulaShare, type FormulaOwnership } from './owner';
import { activeSpreadsheet, clientDeps, now, userProperties } from '../../apps-script';
import { asSidebarCall, loadSettings, serviceSettings, storeSettings } from '../context';

function spreadsheetIdOrNull(): string | null {
  try {
    return activeSpreadsheet().getId();
  } catch (_e) {
    return null;
  }
}

function ownership(): FormulaOwnership | null {
  try {
    return formulaOwnership();
  } catch (_e) {
    return null;
  }
}

/**
 * Whether this user has shared their key with the formulas of this spreadsheet (issue 5's
 * setting; the share record is src/custom-functions/key.ts's). Only the owner's share counts.
 */
function formulaKeyShared(): boolean {
  const id = spreadsheetIdOrNull();
  if (!id) return false;
  return userProperties().getProperty(formulaSharePropertyName(id)) !== null;
}

export function settingsView(s: StoredSettings): SettingsView {
  const o = ownership();
  const owner = !!o && mayShare(o);
  const shared = owner && formulaKeyShared();
  return {
    apiKeyMasked: maskKey(s.apiKey),
    hasApiKey: !!s.apiKey,
    serviceUrl: s.serviceUrl,
    defaultMarketplace: s.marketplace || FALLBACK_MARKETPLACE,
    marketplaces: marketplaceOptions(),
    formulaKeyShared: shared,
    isOwner: owner,
    formulaNote: o ? formulaNote(o, shared) : '',
    help: settingsHelp(),
  };
}

/** Sidebar: the current user's settings (key masked). */
export function getSettings(): SettingsView {
  return asSidebarCall(() => settingsView(loadSettings()));
}

/**
 * Sidebar: saves what the user changed. When the key, address or default marketplace changes, every
 * formula share of this user (one per spreadsheet where sharing is on, src/custom-functions/key.ts) is
 * rewritten with them, so no formula keeps using a key the user replaced. `formulasOnMyKey: true`
 * also turns on "Formulas in this spreadsheet run on my key" (the owner's one step from a saved key
 * to working formulas, issue 27 item 4); refused before anything is saved when this user may not.
 */
export function saveSettings(input: SettingsInput): SettingsView {
  return asSidebarCall(() => {
    const current = loadSettings();
    const change = applySettingsInput(current, input || {}, ADDON_DEFAULT_SERVICE_URL);
    const formulasOn = !!(input && input.formulasOnMyKey === true);
    if (formulasOn) {
      const o = formulaOwnership();
      if (!mayShare(o)) throw new Error(shareRefusal(o));
      // Checked before saving: no key at all would leave formulas on nothing.
      serviceSettings(change.next);
    }
    const checked = input && input.check === true && change.keyChanged && change.next.apiKey ? probe(change.next) : undefined;
    if (checked && checked.problem === 'bad-key' && change.next.apiKey !== current.apiKey)
      throw new Error(keyRefused(change.next, current));
    if (checked)
      checked.message = (checked.ok ? 'Settings saved. ' : 'The settings are saved, but the key could not be checked: ') + checked.message;
    storeSettings(change.next);
    // Also when no key was saved: a share left without its key takes the new one (the local runtime
    // keeps the user store in a saved .xlsx with every key emptied: emulator/gas/README.md).
    if (change.keyChanged) rewriteFormulaShares(change.next);
    if (formulasOn) writeFormulaShare(true, change.next);
    return checked ? { ...settingsView(change.next), checked } : settingsView(change.next);
  });
}

/** A new key the service refused: nothing was saved, and which key is still in use. */
function keyRefused(next: StoredSettings, current: StoredSettings): string {
  return (
    'The Scan Service at ' +
    next.serviceUrl +
    ' refused this key (401), so nothing was saved' +
    (current.apiKey ? ': your saved key (' + maskKey(current.apiKey) + ') is still the one in use' : '') +
    '. Copy the key again from Integrations > API Access and paste it here.'
  );
}

function rewriteFormulaShares(s: StoredSettings): void {
  const props = userProperties();
  const all = props.getProperties();
  const prefix = formulaSharePropertyName('');
  const updates: { [k: string]: string } = {};
  for (const k of Object.keys(all)) {
    if (k.indexOf(prefix) !== 0) continue;
    // An unreadable share is left for the formulas' own reader to refuse.
    const share = FORMULA_SHARE.parse(all[k]);
    if (share) updates[k] = FORMULA_SHARE.encode({ ...share, apiKey: s.apiKey, baseUrl: s.serviceUrl, marketplace: s.marketplace }, '');
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
  return probe(input ? applySettingsInput(saved, input, ADDON_DEFAULT_SERVICE_URL).next : saved);
}

/** The connection test of some settings (saved or not). */
function probe(s: StoredSettings): ConnectionResult {
  if (!s.apiKey) return connectionResult({ kind: 'no-key', message: '' }, s);
  const service: ServiceSettings = { baseUrl: s.serviceUrl, apiKey: s.apiKey };
  try {
    probeAsinConvert({ settings: service, deps: clientDeps(), deadline: now() + PROBE_BUDGET_MS }, s.marketplace, [PROBE_ASIN], {
      policy: { ...DEFAULT_RETRY_POLICY, maxAttempts: 2 },
    });
    return connectionResult(null, s);
  } catch (e) {
    const problem = problemOf(e);
    if (problem) return connectionResult(problem, s);
    throw e;
  }
}
