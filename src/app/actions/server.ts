/**
 * Row actions' server functions and menu actions: the selected rows of a result tab (recognised by
 * its tab record) into one list — planned (plan.ts), applied (apply.ts), recorded for undo
 * (store/actions.ts), and the result tabs' marks refreshed (marks.ts). Under the document lock
 * the lists sync and imports also take.
 */
import { activeSpreadsheet, documentProperties } from '../../apps-script';
import { asSidebarCall } from '../context';
import { gasSyncEnv } from '../lists/environment';
import { withListsLock } from '../lists/run';
import { noteListWritten } from '../lists/status';
import type { ListId } from '../lists/kinds';
import { resultTabs } from '../records/tabs';
import { readActions, writeActions, type ActionRecord } from '../../store/actions';
import { applyChanges, entriesAfter, openList } from './apply';
import { refreshResultTabs } from '../lists/marks';
import { checkArgs, planAction, rowAction, ROW_ACTIONS, type ActionPlan, type Change, type RowActionName } from './plan';
import { resultColumnsOf, resultRows, type ResultRow } from '../lists/mark-plan';
import type { RowActionId, RowActionPreview, RowActionResult, RowActionsView, RowActionView, RowPicture } from './protocol';
import { findResultTab } from '../../domain/result-tabs/read';
import { DESCRIPTION_HEADER } from '../../domain/result-tabs/result-columns';
import { pictureOfFormula } from '../../domain/result-tabs/picture';
import { commas } from '../../../contract/numbers';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

/** Rows one action takes at most (one bulk request holds 10,000); notes go one request each. */
export const MAX_SELECTED_ROWS = 10_000;
export const MAX_NOTE_ROWS = 1_000;

interface Selection {
  sheetName: string;
  marketplace: string;
  rows: ResultRow[];
  /** Said about the selection itself (the header row left out). */
  notes: string[];
}

/** The selected rows of a result tab, by header; a selection elsewhere is a plain message. */
export function readSelection(ss: Spreadsheet, defaultMarketplace: string): Selection {
  const range = ss.getActiveRange();
  if (!range) throw new Error("Select one or more rows of a scan's result tab first.");
  const sheet = range.getSheet();
  const tab = resultTabs(ss, documentProperties()).find((t) => t.sheet.getSheetId() === sheet.getSheetId());
  if (!tab) throw new Error(`"${sheet.getName()}" is not a scan's result tab. Select rows in a tab the add-on imported (Scans → Import).`);
  const notes: string[] = [];
  let r1 = range.getRow();
  const r2 = Math.min(range.getLastRow(), sheet.getLastRow());
  if (r1 === 1) {
    if (range.getLastRow() === 1) throw new Error('The header row is not a product. Select product rows below it.');
    notes.push('The header row is not a product: left out');
    r1 = 2;
  }
  if (r1 > r2) throw new Error(`Row ${r1} is below the last product of "${sheet.getName()}". Select product rows.`);
  if (r2 - r1 + 1 > MAX_SELECTED_ROWS)
    throw new Error(`${r2 - r1 + 1} rows are selected; an action takes at most ${commas(MAX_SELECTED_ROWS)}.`);
  const lastCol = sheet.getLastColumn();
  const cols = resultColumnsOf(sheet.getRange(1, 1, 1, lastCol).getValues()[0]);
  if (cols.asin < 0) throw new Error(`"${sheet.getName()}" has no ASIN column in its first row.`);
  // One read of the columns between the first and last of ASIN, Brand and Identifier.
  const used = [cols.asin, cols.brand, cols.identifier].filter((c) => c >= 0);
  const from = Math.min(...used);
  const to = Math.max(...used);
  const values = sheet.getRange(r1, from + 1, r2 - r1 + 1, to - from + 1).getValues();
  const shift = (c: number) => (c >= 0 ? c - from : -1);
  const rows = resultRows({ ...cols, asin: shift(cols.asin), brand: shift(cols.brand), identifier: shift(cols.identifier) }, values, r1);
  return { sheetName: sheet.getName(), marketplace: tab.record.marketplace || defaultMarketplace, rows, notes };
}

function preview(plan: ActionPlan, sel: Selection): RowActionPreview {
  return {
    action: plan.action,
    list: plan.list,
    summary: plan.summary,
    skipped: sel.notes.concat(plan.skipped),
    count: plan.changes.length,
    selected: sel.rows.length,
    sheetName: sel.sheetName,
    message: [plan.summary].concat(sel.notes, plan.skipped).join('. ') + '.',
  };
}

/** Reads selection, list and args, and plans (no change anywhere). */
function prepare(action: unknown, arg: unknown, create: boolean) {
  const act = rowAction(action);
  const value = checkArgs(act, arg);
  const env = gasSyncEnv();
  const sel = readSelection(env.ss, env.marketplace);
  if (act === 'addNote' && sel.rows.length > MAX_NOTE_ROWS)
    throw new Error(`A note goes to at most ${MAX_NOTE_ROWS} rows at once (each note is one request); ${sel.rows.length} are selected.`);
  const lt = openList(env.ss, ROW_ACTIONS[act].list, sel.marketplace, env.marketplace, create);
  const plan = planAction(act, value, sel.rows, sel.marketplace, lt ? lt.read.entries : new Map<string, string>());
  return { act, env, sel, lt, plan };
}

export function previewRowAction(action: RowActionId, arg?: string | string[] | number | null): RowActionPreview {
  return asSidebarCall(() => {
    const { act, env, plan, sel } = prepare(action, arg, false);
    const pictures = WITH_PICTURES.has(act) ? selectedPictures(env.ss) : [];
    return pictures.length ? { ...preview(plan, sel), pictures } : preview(plan, sel);
  });
}

/** The actions where a picture tells a wrong match at a glance. */
const WITH_PICTURES: ReadonlySet<string> = new Set<RowActionId>(['confirmMatch', 'markNotMatch']);
/** At most this many selected rows come with their picture (what the sidebar has room for). */
const PICTURE_ROWS = 10;

/**
 * The first selected rows' pictures, titles and supplier titles: one read of the Picture column's
 * formulas and one of the titles. The address is taken from `=IMAGE("…")` and checked again: anyone
 * may have edited the cell. Nothing when the tab has no Picture column.
 */
function selectedPictures(ss: Spreadsheet): RowPicture[] {
  const range = ss.getActiveRange()!;
  const sheet = range.getSheet();
  const header = sheet.getRange(1, 1, 1, sheet.getLastColumn()).getValues()[0];
  const tab = findResultTab(header);
  const pic = tab ? tab.columns.get('picture') : undefined;
  if (!tab || pic === undefined) return [];
  const r1 = Math.max(2, range.getRow());
  const n = Math.min(PICTURE_ROWS, Math.min(range.getLastRow(), sheet.getLastRow()) - r1 + 1);
  if (n < 1) return [];
  const title = tab.columns.get('title') ?? -1;
  const own = tab.headers.findIndex((h, i) => i > title && i !== pic && DESCRIPTION_HEADER.test(h));
  const first = Math.min(pic, title >= 0 ? title : pic, own >= 0 ? own : pic);
  const last = Math.max(pic, title, own);
  const block = sheet.getRange(r1, first + 1, n, last - first + 1);
  const formulas = block.getFormulas();
  const shown = block.getDisplayValues();
  return formulas.map((f, i) => ({
    sheetRow: r1 + i,
    supplierTitle: own >= 0 ? shown[i][own - first] : '',
    title: title >= 0 ? shown[i][title - first] : '',
    picture: pictureOfFormula(f[pic - first]),
  }));
}

function newId(): string {
  return Date.now().toString(36) + Math.floor(Math.random() * 1296).toString(36);
}

export function applyRowAction(action: RowActionId, arg?: string | string[] | number | null): RowActionResult {
  return asSidebarCall(() =>
    withListsLock(() => {
      const { act, env, sel, lt, plan } = prepare(action, arg, true);
      const p = preview(plan, sel);
      if (!plan.changes.length) return { ...p, id: null, marked: 0 };
      const done = applyChanges(env, plan.list, lt!, plan.changes);
      noteListWritten(env.account, plan.list, entriesAfter(lt!, done), 'Row action: ' + plan.summary);
      const record: ActionRecord = {
        id: newId(),
        at: new Date().toISOString(),
        action: act,
        list: plan.list,
        summary: plan.summary,
        changes: done.map((c) => [c.key, c.before, c.after]),
      };
      const kept = writeActions(env.ss.getId(), [record].concat(readActions(env.ss.getId())));
      const marked = refreshResultTabs(env.ss, documentProperties(), env.marketplace);
      const message = [`Done: ${plan.summary}`].concat(p.skipped, kept ? [] : ['Too large to keep for Undo']).join('. ') + '.';
      return { ...p, id: kept ? record.id : null, message, marked };
    }),
  );
}

export function undoRowAction(id: string): RowActionResult {
  return asSidebarCall(() =>
    withListsLock(() => {
      const env = gasSyncEnv();
      const ssId = env.ss.getId();
      const records = readActions(ssId);
      const record = records.find((r) => r.id === String(id));
      if (!record) throw new Error('That action is no longer kept (actions are kept for this session only), so it cannot be undone here.');
      if (record.undone) throw new Error(`"${record.summary}" was already undone.`);
      const list = record.list as ListId;
      const mp = env.marketplace;
      // Entries are keyed with their marketplace; the table must hold it (openList checks).
      const lt = openList(env.ss, list, firstMarketplace(record) ?? mp, mp, true)!;
      const back: Change[] = [];
      let moved = 0;
      for (const [key, before, after] of record.changes) {
        // Only entries still as the action left them go back; what changed since stays.
        const now = lt.read.entries.get(key) ?? null;
        if (now !== after) moved++;
        else back.push({ key, before: after, after: before });
      }
      if (back.length) noteListWritten(env.account, list, entriesAfter(lt, applyChanges(env, list, lt, back)), 'Undo: ' + record.summary);
      record.undone = true;
      writeActions(ssId, records);
      const marked = refreshResultTabs(env.ss, documentProperties(), mp);
      const skipped = moved
        ? [`${moved} ${moved === 1 ? 'entry was' : 'entries were'} changed since: left as ${moved === 1 ? 'it is' : 'they are'}`]
        : [];
      return {
        action: record.action as RowActionId,
        list,
        summary: 'Undo: ' + record.summary,
        skipped,
        count: back.length,
        selected: record.changes.length,
        sheetName: '',
        id: record.id,
        message: [`Undone: ${record.summary}`].concat(skipped).join('. ') + '.',
        marked,
      };
    }),
  );
}

function firstMarketplace(r: ActionRecord): string | null {
  const c = r.changes[0];
  if (!c) return null;
  const text = r.list === 'notes' ? (c[2] ?? c[1] ?? '') : c[0];
  return text.split('\t')[0] || null;
}

/** The last actions of this session, newest first. */
function recentActions(): RowActionView[] {
  return readActions(activeSpreadsheet().getId()).map((r) => ({
    id: r.id,
    at: r.at,
    action: r.action,
    summary: r.summary,
    undone: !!r.undone,
  }));
}

export function listRowActions(): RowActionsView {
  return asSidebarCall(() => ({
    actions: (Object.keys(ROW_ACTIONS) as RowActionName[]).map((id) => ({
      id,
      label: ROW_ACTIONS[id].label + (ROW_ACTIONS[id].ask ? '…' : ''),
    })),
    hint: 'Units, tags or note',
    recent: recentActions()
      .filter((r) => !r.undone)
      .slice(0, 5),
  }));
}
