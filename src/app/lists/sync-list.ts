/**
 * One list's sync: read the table, the base and the service, plan (plan.ts), then apply: sends
 * first, then ONE sheet write, then the base. Also the list's report (counts, conflicts, refused
 * rows, the entries named) and the "put back" that restores entries the deletion guard stopped.
 */
import { readBase, writeBase, BASE_CHUNK_CHARS } from '../../store/lists';
import { CELL_MAX_CHARS, cutText } from '../../domain/sheet/safe';
import { commas } from '../../../contract/numbers';
import { readRows, SEP, splitKey, type ListKind } from './kinds';
import { guardVerdict, planSync, sameEntries, type GuardVerdict, type Plan, type Side } from './plan';
import { coverRows, findTable, noChanges, tableRows, writeTable, type SheetChanges, type Table } from './sheet';
import { applySends, readServiceEntries } from './service';
import type { SyncEnv } from './environment';
import type { ListReport, ListState } from './protocol';

const LISTED = 100;
const zero = () => ({ added: 0, changed: 0, deleted: 0 });
/** Entries named in a report (the counts say how many there are in all). */
const LISTED_ENTRIES = 20;

/** A value for people: parts joined by " · ", long text cut (the sidebar shows it; the sheet has it all). */
const readable = (s: string | null) => {
  if (s === null) return null;
  const t = s.split(SEP).join(' · ');
  return t.length > 500 ? t.slice(0, 499) + '…' : t;
};

export function emptyReport(kind: ListKind, state: ListState, message: string): ListReport {
  return {
    list: kind.id,
    title: kind.title,
    rangeName: kind.rangeName,
    sheetName: null,
    state,
    message,
    firstSync: false,
    sheetEntries: 0,
    serviceEntries: 0,
    toService: zero(),
    toSheet: zero(),
    conflictCount: 0,
    conflicts: [],
    refusedCount: 0,
    refused: [],
    entries: [],
    serviceDeletions: 0,
    sheetDeletions: 0,
  };
}

function label(kind: ListKind, key: string, value: string | null): string {
  return kind.label ? kind.label(key, value) : (readable(key) as string);
}

export interface ListOptions {
  apply: boolean;
  confirmDeletions: boolean;
  resolutions?: { [key: string]: Side };
  /** Instead of syncing: put the entries the sync would delete at the service back into the sheet. */
  restore?: boolean;
}

/** The three sides of one list as read: the sheet (its table), the base, and the service. */
interface Sides {
  table: Table;
  read: ReturnType<typeof readRows>;
  base: ReturnType<typeof readBase>;
  sheet: Map<string, string>;
  service: Map<string, string>;
  /** Rows taken for service entries no row named (kind.adopt), with those entries' keys. */
  adoptedRows: Map<number, string>;
  tooLong: Oversized[];
}

/** One list: read, plan and (when asked) apply. Throws OutOfTimeError when the time ran out. */
export function syncList(env: SyncEnv, kind: ListKind, opts: ListOptions): ListReport {
  const found = findTable(env.ss, kind);
  if (!found.ok) return emptyReport(kind, found.missing ? 'not-set-up' : 'problem', found.message);
  env.fingerprints.set(kind.id, found.table.fingerprint);
  const sides = readSides(env, kind, found.table);
  const plan = planSync({
    base: sides.base,
    sheet: sides.sheet,
    service: sides.service,
    held: sides.read.held,
    resolutions: opts.resolutions,
  });
  const guard = guardVerdict(plan);
  const report = planReport(kind, sides, plan, guard);
  const unwritten = sides.tooLong.filter((o) => o.row === null);
  if (opts.restore) return restoreDeleted(env, kind, sides, plan, report);
  if (guard.blocked && !opts.confirmDeletions) {
    report.state = 'blocked';
    report.message = guard.message;
    return report;
  }
  if (!opts.apply) {
    report.state = 'preview';
    report.message = summary(report, true) + unwrittenText(unwritten);
    return report;
  }
  applyPlan(env, kind, sides, plan);
  const work = plan.sendUpsert.length + plan.sendDelete.length + plan.writeUpsert.length + plan.writeDelete.length;
  report.state = plan.conflicts.length ? 'conflicts' : work ? 'synced' : 'unchanged';
  report.message = summary(report, false) + unwrittenText(unwritten);
  return report;
}

/** The sheet's rows, the base and the service's entries (of the marketplaces either side names). */
function readSides(env: SyncEnv, kind: ListKind, table: Table): Sides {
  const hasMarketplace = table.columns.marketplace !== undefined;
  const read = readRows(kind, tableRows(table), env.marketplace);
  const base = readBase(env.ss, kind.id, env.account);
  const marketplaces = new Set<string>([env.marketplace]);
  read.entries.forEach((_v, k) => marketplaces.add(splitKey(k)[0]));
  if (base) base.forEach((_v, k) => marketplaces.add(splitKey(k)[0]));
  const serviceAll = readServiceEntries(env.ctx, kind.id, hasMarketplace ? null : env.marketplace, Array.from(marketplaces).sort());
  // A table without a Marketplace column holds the default marketplace only.
  const service = new Map<string, string>();
  serviceAll.forEach((v, k) => {
    const mp = kind.marketplaceOf ? kind.marketplaceOf(k, v) : splitKey(k)[0];
    if (hasMarketplace || mp === env.marketplace) service.set(k, v);
  });
  const sheet = new Map(read.entries);
  const adoptedRows = kind.adopt ? kind.adopt(sheet, service, read.rowsOf) : new Map<number, string>();
  const tooLong = oversizedEntries(kind, service, sheet, read.rowsOf);
  for (const o of tooLong) read.held.add(o.key);
  return { table, read, base, sheet, service, adoptedRows, tooLong };
}

/** The list's report of the plan: counts both ways, conflicts, refused rows, the entries named. */
function planReport(kind: ListKind, sides: Sides, plan: Plan, guard: GuardVerdict): ListReport {
  const { read, base, sheet, service, tooLong } = sides;
  const report = emptyReport(kind, 'preview', '');
  report.sheetName = sides.table.sheet.getName();
  report.firstSync = base === null;
  report.sheetEntries = sheet.size;
  report.serviceEntries = service.size;
  for (const e of plan.sendUpsert) service.has(e.key) ? report.toService.changed++ : report.toService.added++;
  report.toService.deleted = plan.sendDelete.length;
  for (const e of plan.writeUpsert) sheet.has(e.key) ? report.toSheet.changed++ : report.toSheet.added++;
  report.toSheet.deleted = plan.writeDelete.length;
  report.conflictCount = plan.conflicts.length;
  report.conflicts = plan.conflicts.slice(0, LISTED).map((c) => ({
    key: c.key,
    label: label(kind, c.key, c.sheet ?? c.service ?? c.base),
    row: (read.rowsOf.get(c.key) || [null])[0],
    base: readable(c.base),
    sheet: readable(c.sheet),
    service: readable(c.service),
  }));
  const refused = read.refused.concat(tooLong.filter((o) => o.row !== null).map((o) => ({ row: o.row as number, reason: o.reason })));
  refused.sort((a, b) => a.row - b.row);
  report.refusedCount = refused.length;
  report.refused = refused.slice(0, LISTED);
  report.entries = namedEntries(kind, sides, plan);
  report.serviceDeletions = guard.serviceDeletions;
  report.sheetDeletions = guard.sheetDeletions;
  return report;
}

/** The first entries the plan changes, deletions first: they are what a seller checks before confirming. */
function namedEntries(kind: ListKind, sides: Sides, plan: Plan): ListReport['entries'] {
  const { sheet, service } = sides;
  const cut = (t: string) => (t.length > 80 ? cutText(t, 79) + '…' : t);
  const named: ListReport['entries'] = [];
  const name = (to: 'service' | 'sheet', change: 'added' | 'changed' | 'deleted', key: string, value: string | null) => {
    if (named.length < LISTED_ENTRIES) named.push({ to, change, label: cut(label(kind, key, value)) });
  };
  for (const e of plan.sendDelete) name('service', 'deleted', e.key, e.value);
  for (const key of plan.writeDelete) name('sheet', 'deleted', key, sheet.get(key) ?? null);
  for (const e of plan.sendUpsert) name('service', service.has(e.key) ? 'changed' : 'added', e.key, e.value);
  for (const e of plan.writeUpsert) name('sheet', sheet.has(e.key) ? 'changed' : 'added', e.key, e.value);
  return named;
}

/** The rows that left the sheet come back with the service's values; the next sync then has nothing to delete. */
function restoreDeleted(env: SyncEnv, kind: ListKind, sides: Sides, plan: Plan, report: ListReport): ListReport {
  const back: SheetChanges = { update: new Map(), remove: new Set(), append: [] };
  for (const e of plan.sendDelete) back.append.push(kind.cells(e.key, sides.service.get(e.key) ?? e.value));
  if (back.append.length) writeTable(env.ss, kind, sides.table, back);
  report.state = 'unchanged';
  report.toService = zero();
  report.toSheet = { added: back.append.length, changed: 0, deleted: 0 };
  report.message = summary(report, false);
  return report;
}

/** Applies the plan: 1. the service, 2. the sheet in one write, 3. the base. */
function applyPlan(env: SyncEnv, kind: ListKind, sides: Sides, plan: Plan): void {
  const { read, base, service, table } = sides;
  const sent = applySends(env.ctx, kind.id, plan.sendUpsert, plan.sendDelete, service);
  const nextBase = plan.nextBase;
  const changes: SheetChanges = { update: new Map(), remove: new Set(), append: [] };
  // Entries the service keyed on creation: their rows get the service's id.
  sent.renamed.forEach((id, key) => {
    const v = nextBase.get(key);
    nextBase.delete(key);
    if (v !== undefined) nextBase.set(id, v);
    for (const row of read.rowsOf.get(key) || (key.indexOf('new:') === 0 ? [Number(key.slice(4))] : []))
      changes.update.set(row, { id: id.slice(3) });
  });
  sides.adoptedRows.forEach((id, row) => changes.update.set(row, { id: id.slice(3) }));
  for (const e of plan.writeUpsert) {
    const cells = kind.cells(e.key, e.value);
    const rows = read.rowsOf.get(e.key);
    if (rows && rows.length) for (const r of rows) changes.update.set(r, cells);
    else changes.append.push(cells);
  }
  for (const key of plan.writeDelete) for (const r of read.rowsOf.get(key) || []) changes.remove.add(r);
  if (!noChanges(changes)) writeTable(env.ss, kind, table, changes);
  else coverRows(env.ss, kind, table);
  // An empty base means the same as none (both merge), so an empty list costs no tab.
  if (!sameEntries(base, nextBase) && !(base === null && nextBase.size === 0)) writeBase(env.ss, kind.id, env.account, nextBase);
}

interface Oversized {
  key: string;
  /** The sheet row that holds the entry's key, or null (the entry would be a new row). */
  row: number | null;
  reason: string;
}

/**
 * Entries of the service that the sheet cannot hold: a cell over Sheets' 50,000 characters (a note
 * or brand of 60,000), or a base record over a base cell. Each is HELD (not written, not sent, not
 * deleted, base kept), so one such entry fails that entry only, never the list's one sheet write.
 */
function oversizedEntries(
  kind: ListKind,
  service: ReadonlyMap<string, string>,
  sheet: ReadonlyMap<string, string>,
  rowsOf: ReadonlyMap<string, number[]>,
): Oversized[] {
  const out: Oversized[] = [];
  service.forEach((v, k) => {
    if (sheet.get(k) === v) return;
    if (k.length + v.length < BASE_CHUNK_CHARS / 2) return;
    const cells = kind.cells(k, v);
    let longest = 0;
    let field = '';
    for (const f of Object.keys(cells)) {
      const c = cells[f];
      if (typeof c === 'string' && c.length > longest) {
        longest = c.length;
        field = f;
      }
    }
    // (the apostrophe that guards a text counts towards the cell, so one character less)
    if (longest <= CELL_MAX_CHARS - 1 && JSON.stringify([k, v]).length <= BASE_CHUNK_CHARS) return;
    const col = kind.columns.find((c) => c.field === field);
    const rows = rowsOf.get(k);
    out.push({
      key: k,
      row: rows && rows.length ? rows[0] : null,
      reason: `the service's ${col ? col.header : 'entry'} for this row has ${commas(longest)} characters, more than a cell holds (${commas(CELL_MAX_CHARS)}): not synced; shorten it in the service`,
    });
  });
  return out;
}

/** "; 1 entry of the service not written: …" for entries too long for a cell that no row holds. */
function unwrittenText(list: readonly Oversized[]): string {
  if (!list.length) return '';
  const first = readable(list[0].key) as string;
  return `; ${list.length} entr${list.length === 1 ? 'y' : 'ies'} of the service not written, longer than a cell holds (${commas(CELL_MAX_CHARS)} characters): ${cutText(first, 60)}${list.length > 1 ? ' and more' : ''}`;
}

function summary(r: ListReport, preview: boolean): string {
  const s = r.toService;
  const w = r.toSheet;
  const parts = [
    `${preview ? 'to send' : 'sent'}: ${s.added} added, ${s.changed} changed, ${s.deleted} deleted`,
    `${preview ? 'to write' : 'written'}: ${w.added} added, ${w.changed} changed, ${w.deleted} deleted`,
  ];
  if (r.conflictCount) parts.push(`${r.conflictCount} conflict${r.conflictCount === 1 ? '' : 's'}`);
  if (r.refusedCount) parts.push(`${r.refusedCount} row${r.refusedCount === 1 ? '' : 's'} refused`);
  return (r.firstSync ? 'first sync (merge); ' : '') + parts.join('; ');
}
