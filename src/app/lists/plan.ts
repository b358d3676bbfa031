/**
 * The three-way merge of one list, pure: what the two sides agreed on at the last sync (the base),
 * what the sheet holds now and what the service holds now, per entry key -> what to send to the
 * service, what to write into the sheet, the conflicts, and the base after applying.
 *
 * Entries are (key, value) strings; kinds.ts makes them from rows and records. An absent key is
 * "no entry". Rules per key (b base, s sheet, v service):
 *  - s = v: nothing to do (the base becomes s);
 *  - only the sheet moved away from b: sent (an upsert, or a delete when s is absent);
 *  - only the service moved: written into the sheet (a row changed, added or removed);
 *  - both moved to different values (a delete counts as a value): a conflict; neither side changes
 *    and the base keeps b, unless the user chose a side for that key (resolutions).
 * The first sync (no base) merges: one-sided entries go to the other side, differences are
 * conflicts, nothing is deleted. Keys of refused sheet rows (held) are left alone entirely.
 *
 * Re-planning after a partial apply gives exactly the work left (what was sent now agrees), which
 * is what makes a sync cut off by the time limit resumable without sending anything twice.
 */

export type Side = 'sheet' | 'service';

export interface Entry {
  key: string;
  value: string;
}

export interface PlanInput {
  /** null: no base (first sync for this list and account). */
  base: ReadonlyMap<string, string> | null;
  sheet: ReadonlyMap<string, string>;
  service: ReadonlyMap<string, string>;
  /** Keys of refused sheet rows: neither sent, written nor deleted; their base stays. */
  held?: ReadonlySet<string>;
  /** A side chosen by the user for conflicting keys; '*' applies to every conflict. */
  resolutions?: { [key: string]: Side };
}

export interface Conflict {
  key: string;
  base: string | null;
  sheet: string | null;
  service: string | null;
}

export interface Plan {
  /** To the service: entries to create or change (value from the sheet). */
  sendUpsert: Entry[];
  /** To the service: entries to delete (value: the one the service holds). */
  sendDelete: Entry[];
  /** Into the sheet: entries to add or change (value from the service). */
  writeUpsert: Entry[];
  /** Out of the sheet: keys whose rows go. */
  writeDelete: string[];
  conflicts: Conflict[];
  /** The base once everything above is applied (conflicts keep their old base). */
  nextBase: Map<string, string>;
  /** Entries on each side before applying (for the guard and the status). */
  sheetCount: number;
  serviceCount: number;
}

export interface GuardLimits {
  /** More than this many deletions ... */
  minDeletions: number;
  /** ... and more than this share of the side's entries stops the list. */
  share: number;
}
/** The numbers: more than 50 entries and more than a fifth of the list. */
export const DELETION_GUARD: GuardLimits = { minDeletions: 50, share: 0.2 };

export interface GuardVerdict {
  blocked: boolean;
  /** Deletions the sync would make on the service / in the sheet. */
  serviceDeletions: number;
  sheetDeletions: number;
  message: string;
}

function get(m: ReadonlyMap<string, string> | null, k: string): string | null {
  if (!m) return null;
  const v = m.get(k);
  return v === undefined ? null : v;
}

export function planSync(input: PlanInput): Plan {
  const { base, sheet, service } = input;
  const held = input.held ?? new Set<string>();
  const res = input.resolutions ?? {};
  const plan: Plan = {
    sendUpsert: [],
    sendDelete: [],
    writeUpsert: [],
    writeDelete: [],
    conflicts: [],
    nextBase: new Map(),
    sheetCount: sheet.size,
    serviceCount: service.size,
  };
  const keys = new Set<string>();
  for (const m of [base, sheet, service]) if (m) m.forEach((_v, k) => keys.add(k));
  const sorted = Array.from(keys).sort();
  for (const key of sorted) {
    const b = get(base, key);
    if (held.has(key)) {
      if (b !== null) plan.nextBase.set(key, b);
      continue;
    }
    const s = get(sheet, key);
    const v = get(service, key);
    if (s === v) {
      if (s !== null) plan.nextBase.set(key, s);
      continue;
    }
    const sheetMoved = s !== b;
    const serviceMoved = v !== b;
    let winner: Side | null = null;
    if (sheetMoved && !serviceMoved) winner = 'sheet';
    else if (serviceMoved && !sheetMoved) winner = 'service';
    else {
      const chosen = res[key] ?? res['*'];
      if (chosen) winner = chosen;
      else {
        plan.conflicts.push({ key, base: b, sheet: s, service: v });
        if (b !== null) plan.nextBase.set(key, b);
        continue;
      }
    }
    if (winner === 'sheet') {
      if (s === null) plan.sendDelete.push({ key, value: v as string });
      else plan.sendUpsert.push({ key, value: s });
      if (s !== null) plan.nextBase.set(key, s);
    } else {
      if (v === null) plan.writeDelete.push(key);
      else plan.writeUpsert.push({ key, value: v });
      if (v !== null) plan.nextBase.set(key, v);
    }
  }
  return plan;
}

/**
 * The deletion guard: applying would delete more than `minDeletions` entries AND more than `share`
 * of a side's entries (a cleared tab, a deleted named range, a filter left on, a list emptied
 * elsewhere). The list is then left alone until the user confirms.
 */
export function guardVerdict(plan: Plan, limits: GuardLimits = DELETION_GUARD): GuardVerdict {
  const serviceDeletions = plan.sendDelete.length;
  const sheetDeletions = plan.writeDelete.length;
  const over = (n: number, of: number) => n > limits.minDeletions && n > of * limits.share;
  const onService = over(serviceDeletions, plan.serviceCount);
  const inSheet = over(sheetDeletions, plan.sheetCount);
  const parts: string[] = [];
  if (onService) parts.push(`delete ${serviceDeletions} of ${plan.serviceCount} entries on the service`);
  if (inSheet) parts.push(`delete ${sheetDeletions} of ${plan.sheetCount} rows in the sheet`);
  return {
    blocked: onService || inSheet,
    serviceDeletions,
    sheetDeletions,
    message: parts.length ? `Nothing was applied: this sync would ${parts.join(' and ')}. Confirm the deletions to go ahead.` : '',
  };
}

/** Equality of two bases (an unchanged sync writes no base). */
export function sameEntries(a: ReadonlyMap<string, string> | null, b: ReadonlyMap<string, string>): boolean {
  if (!a || a.size !== b.size) return false;
  let same = true;
  a.forEach((v, k) => {
    if (same && b.get(k) !== v) same = false;
  });
  return same;
}
