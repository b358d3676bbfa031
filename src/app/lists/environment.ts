/**
 * What one sync run works with: the spreadsheet, the account, the default marketplace, the paced
 * API context (the pacer keeps this account's request times in the user cache), and the run's time
 * budget from the lists tuning knob (script property LISTS_TUNING_PROPERTY; tests and the bench lower it).
 */
import { BulkPacer, type PaceStore } from '../../api/bulk-pacer';
import type { PacedContext } from '../../api/bulk';
import { activeSpreadsheet, clientDeps, scriptProperties, userCache } from '../../apps-script';
import { loadSettings, serviceSettings } from '../context';
import { accountTag, LISTS_TUNING_PROPERTY, PACE_PREFIX, PACE_TTL_S } from '../../store/lists';

/** What a run allows itself (the rest of Google's 6 minutes: the sheet write, the base, the checkpoint). */
export const DEFAULT_TUNING = { budgetMs: 4 * 60 * 1000, deadlineMs: 5 * 60 * 1000 };
export interface SyncEnv {
  ss: GoogleAppsScript.Spreadsheet.Spreadsheet;
  account: string;
  marketplace: string;
  ctx: PacedContext;
  startedAt: number;
  budgetMs: number;
  stats: { requests: number; rateLimited: number };
  /** The automatic sync (its schedule lengthens a quiet list's interval; schedule.ts). */
  automatic?: boolean;
  /** Each list's table fingerprint as this run read it. */
  fingerprints: Map<string, string>;
}

function readTuning(): { budgetMs: number; deadlineMs: number } {
  const raw = scriptProperties().getProperty(LISTS_TUNING_PROPERTY);
  const t = { ...DEFAULT_TUNING };
  if (raw) {
    try {
      const v = JSON.parse(raw);
      if (typeof v.budgetMs === 'number' && v.budgetMs > 0) t.budgetMs = v.budgetMs;
      if (typeof v.deadlineMs === 'number' && v.deadlineMs > 0) t.deadlineMs = v.deadlineMs;
    } catch (_e) {
      // unreadable knob: defaults
    }
  }
  return t;
}

function paceStore(account: string): PaceStore {
  const cache = userCache();
  const key = PACE_PREFIX + account;
  return {
    load() {
      try {
        const v = JSON.parse(cache.get(key) || '[]');
        return Array.isArray(v) ? v : [];
      } catch (_e) {
        return [];
      }
    },
    save(times) {
      cache.put(key, JSON.stringify(times), PACE_TTL_S);
    },
  };
}

export function gasSyncEnv(): SyncEnv {
  const s = loadSettings();
  const settings = serviceSettings(s);
  const deps = clientDeps();
  const startedAt = Date.now();
  const tuning = readTuning();
  const account = accountTag(settings.apiKey);
  const stats = { requests: 0, rateLimited: 0 };
  const pacer = new BulkPacer(deps.now, deps.sleep, paceStore(account));
  return {
    ss: activeSpreadsheet(),
    account,
    marketplace: s.marketplace,
    ctx: { settings, deps, pacer, deadline: startedAt + tuning.deadlineMs, stats },
    startedAt,
    budgetMs: tuning.budgetMs,
    stats,
    fingerprints: new Map(),
  };
}
