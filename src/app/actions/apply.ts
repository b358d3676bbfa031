/**
 * Applies planned entry changes to ONE list, in the lists sync's own order: the sends to the
 * service first (exactly those entries, the fewest requests the API allows: one bulk request per
 * marketplace, tags one PUT/DELETE per marketplace, notes one request each in one parallel fetch),
 * then ONE write of the list's table, then the base — so the next sync finds sheet, service and
 * base agreeing on these entries and has nothing to do for them.
 */
import { LIST_KINDS, listKind, readRows, type ListId, type ReadRows } from '../lists/kinds';
import { createTable, findTable, tableRows, writeTable, type SheetChanges, type Table } from '../lists/sheet';
import { applySends } from '../lists/service';
import type { SyncEnv } from '../lists/environment';
import type { Entry } from '../lists/plan';
import { readBase, writeBase } from '../../store/lists';
import type { Change } from './plan';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

/** "Set up lists" for the lists that have no table yet (as the Lists view's Set up does). */
export function ensureTables(ss: Spreadsheet): void {
  // A new tab becomes the active one: the user's selection is put back.
  const active = ss.getActiveRange();
  let created = false;
  for (const kind of LIST_KINDS) {
    if (ss.getRangeByName(kind.rangeName)) continue;
    createTable(ss, kind);
    created = true;
  }
  if (created && active) {
    ss.setActiveSheet(active.getSheet());
    ss.setActiveRange(active);
  }
}

export interface ListTable {
  table: Table;
  read: ReadRows;
}

/** A list's table and its entries (2 reads); a table that cannot be read is a plain message. */
/** `create`: a missing table is set up (an action); without it (a preview) a missing table reads as empty (null). */
export function openList(
  ss: Spreadsheet,
  list: ListId,
  marketplace: string,
  defaultMarketplace: string,
  create: boolean,
): ListTable | null {
  const kind = listKind(list);
  let found = findTable(ss, kind);
  if (!found.ok && found.missing) {
    if (!create) return null;
    ensureTables(ss);
    found = findTable(ss, kind);
  }
  if (!found.ok) throw new Error(found.message);
  const t = found.table;
  if (t.columns.marketplace === undefined && marketplace !== defaultMarketplace) {
    throw new Error(
      `${kind.rangeName} (${t.sheet.getName()}) has no Marketplace column, so it holds ${defaultMarketplace} entries only; this scan is for ${marketplace}. Add a Marketplace column to the table.`,
    );
  }
  return { table: t, read: readRows(kind, tableRows(t), defaultMarketplace) };
}

/** How many entries the list's table holds once `done` is written. */
export function entriesAfter(lt: ListTable, done: readonly Change[]): number {
  const after = new Map(lt.read.entries);
  for (const c of done) {
    if (c.after === null) after.delete(c.key);
    else after.set(c.key, c.after);
  }
  return after.size;
}

/** Sends, writes and records the changes; answers them with notes' new ids in place of "new:" keys. */
export function applyChanges(env: SyncEnv, list: ListId, lt: ListTable, changes: readonly Change[]): Change[] {
  const kind = listKind(list);
  const ups: Entry[] = [];
  const dels: Entry[] = [];
  const before = new Map<string, string>();
  for (const c of changes) {
    if (c.after !== null) ups.push({ key: c.key, value: c.after });
    else if (c.before !== null) dels.push({ key: c.key, value: c.before });
    if (c.before !== null) before.set(c.key, c.before);
  }
  const sent = applySends(env.ctx, list, ups, dels, before);
  const done = changes.map((c) => ({ ...c, key: sent.renamed.get(c.key) ?? c.key }));
  const sheet: SheetChanges = { update: new Map(), remove: new Set(), append: [] };
  for (const c of done) {
    const rows = lt.read.rowsOf.get(c.key) ?? [];
    if (c.after === null) for (const r of rows) sheet.remove.add(r);
    else if (rows.length) for (const r of rows) sheet.update.set(r, kind.cells(c.key, c.after));
    else sheet.append.push(kind.cells(c.key, c.after));
  }
  writeTable(env.ss, kind, lt.table, sheet);
  // The base moves only where it exists: without one, the next sync is a first sync, which merges
  // (and finds these entries equal on both sides).
  const base = readBase(env.ss, list, env.account);
  if (base) {
    for (const c of done) {
      if (c.after === null) base.delete(c.key);
      else base.set(c.key, c.after);
    }
    writeBase(env.ss, list, env.account, base);
  }
  return done;
}
