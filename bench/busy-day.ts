/**
 * One modelled day of a busy seller against Google's DAILY quotas (issue 15): the BUILT add-on in
 * the local Apps Script runtime with consumer quotas (emulator/gas/quotas.ts) on its virtual clock,
 * the local Scan Service in a child process. One user (the spreadsheet owner), 23 hours:
 *
 * - 5 scans of 2,000, 4,000, 6,000, 8,000 and 10,000 lines, started at 07:00, 09:00, ... 15:00 from
 *   New scan (getScanSetup + startScan on five supplier tabs of the workbook: uploaded, recorded,
 *   trigger ensured, all by the add-on) and imported by the hourly trigger. The bench fails unless
 *   the trigger imports every one of them (its premise: without imports its quota shares mean nothing);
 * - 20 reopenings (onOpen + the recalculation Sheets does) of a sheet with =ASIN_FROM_UPC over
 *   5,000 cells (2,000 distinct UPCs);
 * - 200 result-row actions: what exists today is the sidebar's "Open tab" on an imported scan
 *   (openResultTab); the row actions of the issue (tags, notes, blocklist, listing matches) are not
 *   built yet, and will be sidebar calls measured the same way;
 * - the six lists (tags 300, notes 100, brand blocklist 50,000, ASIN blocklist 3,000, listing matches
 *   1,000, multipack corrections 500 rows), synced in full by hand the day before, then synced
 *   automatically by the hourly trigger (src/app/lists/schedule.ts) while the seller edits some
 *   of them in the sheet (10:00 20 brands, 11:00 5 ASINs, 16:00 one pack size) and the service gets
 *   3 tags from elsewhere (14:00). The list areas of the service run in a worker thread on the
 *   runtime's virtual clock (their 30 requests a minute count in modelled time, as the add-on's
 *   pacing does), behind a front door that sends every other path to the day's service
 *   (emulator/service/worker, a front door).
 *
 * Printed per quota: what the day used against the consumer limit (URL Fetch calls 20,000, property
 * reads/writes 50,000, trigger runtime 90 min; data received counted, no longer a published quota),
 * split by activity. Then the same day with naive approaches written only here (appended to a copy
 * of the bundle): a trigger that polls every scan of the day every hour and imports page by page
 * (one fetch and one checkpoint write per page), the identifier formula without its cache
 * (emptied before each reopening), and every list synced in full every hour (the add-on's Sync now
 * from an hourly trigger of its own).
 * Run alone: `npm run build && npx tsx bench/busy-day.ts`.
 */
import { createRuntime, DEFAULT_SCRIPT_PATH, type QuotaUsage, type Runtime } from '../emulator/gas';
import { Workbook } from '../emulator/gas/spreadsheet';
import { spawnService, type SpawnedService } from '../emulator/service/spawn';
import { sampleIndex } from '../emulator/service/catalog/sample-index';
import { priceListCsv } from './price-list';
import { SharedClock } from '../emulator/gas/shared-clock';
import { startServiceInWorker, type WorkerService } from '../emulator/service/worker';
import { runAlone } from './run-alone';
import { scriptWithNaive } from './naive-script';

const OWNER = 'owner@example.com';
const HOUR = 3600_000;
const SCAN_LINES = [2000, 4000, 6000, 8000, 10000];
const SCAN_HOURS = [1, 3, 5, 7, 9];
const CELLS = 5000;
const DISTINCT = 2000;
const REOPENINGS = 20;
const ROW_ACTIONS = 200;
const DAY_HOURS = 23;
/** The day starts at 06:00; the lists were synced by hand the day before at 05:00 (a quota day earlier). */
const DAY_START = Date.UTC(2026, 10, 23, 6, 0, 0);
const EVE = DAY_START - 25 * HOUR;
const LIST_ROWS = { tags: 300, notes: 100, brands: 50_000, asins: 3_000, matches: 1_000, multipack: 500 };
/** The supplier tab and the scan name of the day's k-th scan (the result tab is named after the scan). */
const listTab = (k: number) => `List ${k + 1}`;
const scanName = (k: number) => `Supplier ${k + 1} (${SCAN_LINES[k]} lines)`;

/** The naive hourly trigger: polls every scan of the day every hour, imports page by page. */
const NAIVE = `
function benchNaiveHourly() {
  var props = PropertiesService.getScriptProperties();
  var s = JSON.parse(props.getProperty('naive.settings'));
  var ids = JSON.parse(props.getProperty('naive.scans') || '[]');
  var ss = SpreadsheetApp.getActiveSpreadsheet();
  var auth = { Authorization: 'Bearer ' + s.key };
  for (var i = 0; i < ids.length; i++) {
    var id = ids[i];
    var scan = JSON.parse(UrlFetchApp.fetch(s.url + '/api/v3/scans/' + id, { headers: auth }).getContentText());
    if (['success', 'error', 'cancelled'].indexOf(scan.status) < 0) continue;
    if (props.getProperty('naive.done.' + id)) continue;
    var sheet = ss.getSheetByName('Naive ' + id) || ss.insertSheet('Naive ' + id);
    var page = Number(props.getProperty('naive.page.' + id) || 0);
    for (;;) {
      page++;
      var res = UrlFetchApp.fetch(s.url + '/api/v3/scans/' + id, { method: 'post', contentType: 'application/json', headers: auth,
        payload: JSON.stringify({ page: page, per_page: 100 }), muteHttpExceptions: true });
      var data = JSON.parse(res.getContentText()).data;
      if (!data.length) break;
      var rows = data.map(function (p) { return [p.asin, String(p.market_title || ''), p.rank || '', p.buybox_price || '', (p.financials || {}).profit || '']; });
      var last = sheet.getLastRow();
      if (last + rows.length > sheet.getMaxRows()) sheet.insertRowsAfter(sheet.getMaxRows(), rows.length);
      sheet.getRange(last + 1, 1, rows.length, 5).setValues(rows);
      props.setProperty('naive.page.' + id, String(page));
    }
    props.setProperty('naive.done.' + id, '1');
  }
}
/** The naive lists sync: every list in full, every hour (the add-on's own Sync now, until done). */
function benchNaiveLists() {
  for (var i = 0; i < 10; i++) if (syncNow(false).done) return;
}
`;

async function uploadScan(service: SpawnedService, lines: number, name: string): Promise<number> {
  const form = new FormData();
  form.append('file', new Blob([priceListCsv(lines, { sku: true, eol: '\r\n' })], { type: 'text/csv' }), name + '.csv');
  form.append(
    'attributes',
    JSON.stringify({ mapping: { id: 0, cost: 1, supplier_sku: 2 }, options: { marketplace_id: 'US', name, header: true } }),
  );
  const auth = { authorization: 'Bearer ' + service.apiKey };
  const up = await fetch(service.url + '/api/v3/scans', { method: 'POST', headers: auth, body: form });
  const { id } = (await up.json()) as { id: number };
  for (;;) {
    const scan = (await (await fetch(service.url + '/api/v3/scans/' + id, { headers: auth })).json()) as { status: string };
    if (['success', 'error', 'cancelled'].includes(scan.status)) return id;
    await new Promise((r) => setTimeout(r, 100));
  }
}

type Activity = 'set-up' | 'scans started' | 'trigger' | 'reopenings' | 'result rows' | 'lists edits';
type Spent = { fetch: number; props: number; triggerMs: number; bytes: number; executions: number; errors: number };

/** Quota spending per activity: the difference of quotaUsage() around each action. */
class Ledger {
  readonly by = new Map<Activity, Spent>();
  constructor(private readonly rt: Runtime) {}
  run<T>(what: Activity, body: () => T): T {
    const u0 = this.rt.quotaUsage();
    const e0 = this.rt.executions.length;
    try {
      return body();
    } finally {
      const u1 = this.rt.quotaUsage();
      const d = (k: keyof Omit<QuotaUsage, 'tier' | 'user'>) => u1[k].used - u0[k].used;
      const s = this.by.get(what) ?? { fetch: 0, props: 0, triggerMs: 0, bytes: 0, executions: 0, errors: 0 };
      const ex = this.rt.executions.slice(e0);
      s.fetch += d('urlFetchCalls');
      s.props += d('propertiesReadWrite');
      s.triggerMs += d('triggerRuntimeMs');
      s.bytes += d('urlFetchBytesReceived');
      s.executions += ex.length;
      s.errors += ex.filter((e) => !e.ok).length;
      this.by.set(what, s);
    }
  }
}

interface DayOptions {
  naive: boolean;
  service: SpawnedService;
  scanIds: number[];
  upcs: string[];
}

/** The front door (list areas on the virtual clock, the rest to `service`), in a worker thread. */
function startWorkerService(clock: SharedClock, service: SpawnedService): Promise<WorkerService> {
  return startServiceInWorker({ clock: clock.buffer, apiKeys: [service.apiKey], forwardTo: service.url });
}

function dayRuntime(opts: DayOptions, clock: SharedClock): { rt: Runtime; wb: Workbook } {
  const wb = new Workbook({ owner: OWNER, name: 'Busy seller', empty: true });
  wb.addSheet('Ids', undefined, CELLS + 10, 26);
  opts.upcs.forEach((u, i) => wb.type('Ids', 'A' + (i + 2), "'" + u));
  // The add-on's day starts its scans from supplier tabs, as a seller does (the naive day uploads its own).
  if (!opts.naive) SCAN_LINES.forEach((lines, k) => supplierTab(wb, listTab(k), lines));
  const rt = createRuntime({
    scriptPath: opts.naive ? scriptWithNaive(NAIVE, 'bench-day-') : DEFAULT_SCRIPT_PATH,
    workbook: wb,
    clock,
    urlFetchTimeoutMs: 30_000,
    quotas: 'consumer',
  });
  return { rt, wb };
}

/** A supplier's price list typed into a tab: UPC, Cost, SKU (the rows bench/price-list.ts makes). */
function supplierTab(wb: Workbook, name: string, lines: number): void {
  const rows = priceListCsv(lines, { sku: true }).trim().split('\n');
  wb.addSheet(name, undefined, rows.length + 10, 3);
  rows.forEach((line, i) => line.split(',').forEach((v, j) => wb.type(name, wb.a1(i + 1, j + 1), i > 0 && j === 0 ? "'" + v : v)));
}

/** New scan on the k-th supplier tab, as the sidebar sends it; the scan's id. */
function startFromSidebar(rt: Runtime, k: number): number {
  const setup = rt.scriptRun('getScanSetup', [{ sheetName: listTab(k) }]) as {
    sheetName: string;
    rangeA1: string;
    selection: boolean;
    headerRow: number;
    columns: Array<{ role: string; header: string }>;
  };
  const started = rt.scriptRun('startScan', [
    {
      roles: setup.columns.map((c) => c.role),
      options: { marketplace: 'US', name: scanName(k) },
      sheetName: setup.sheetName,
      rangeA1: setup.rangeA1,
      selection: setup.selection,
      headerRow: setup.headerRow,
      headers: setup.columns.map((c) => c.header),
    },
  ]) as { progress: { scanId: number } };
  return started.progress.scanId;
}

/** Waits (real time) until the service has finished scan `id`, so the next trigger run finds it done. */
async function finished(service: SpawnedService, id: number): Promise<void> {
  const auth = { authorization: 'Bearer ' + service.apiKey };
  for (;;) {
    const scan = (await (await fetch(service.url + '/api/v3/scans/' + id, { headers: auth })).json()) as { status: string };
    if (['success', 'error', 'cancelled'].includes(scan.status)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const asin = (prefix: string, i: number) => prefix + String(i).padStart(9, '0');

/** The six tables as the seller keeps them (rows typed after "Set up lists" made the tabs). */
function fillLists(wb: Workbook): void {
  const put = (sheet: string, n: number, row: (i: number) => unknown[]) => {
    (wb.requireSheet(sheet) as { maxRows: number }).maxRows = Math.max(wb.requireSheet(sheet).maxRows, n + 100);
    for (let i = 0; i < n; i++) row(i).forEach((v, j) => wb.type(sheet, wb.a1(i + 2, j + 1), v));
  };
  put('Scan tags', LIST_ROWS.tags, (i) => ['US', asin('B', i), i % 3 ? 'keep' : 'keep, seasonal']);
  put('Scan notes', LIST_ROWS.notes, (i) => ['US', asin('N', i), 'Supplier note ' + i]);
  put('Scan brand blocklist', LIST_ROWS.brands, (i) => ['US', 'Brand ' + i]);
  put('Scan ASIN blocklist', LIST_ROWS.asins, (i) => ['US', asin('X', i)]);
  put('Scan listing matches', LIST_ROWS.matches, (i) => ['US', 'SKU-' + i, asin('M', i), i % 5 ? 'TRUE' : 'FALSE']);
  put('Scan multipack', LIST_ROWS.multipack, (i) => ['US', asin('P', i), 2 + (i % 6)]);
}

/** The seller's edits of the day (the same in both days): hour -> what happens. */
async function listsEdits(h: number, wb: Workbook, door: WorkerService, key: string): Promise<void> {
  const typeRows = (sheet: string, from: number, rows: unknown[][]) =>
    rows.forEach((r, i) => r.forEach((v, j) => wb.type(sheet, wb.a1(from + i, j + 1), v)));
  if (h === 4)
    typeRows(
      'Scan brand blocklist',
      LIST_ROWS.brands + 2,
      Array.from({ length: 20 }, (_, i) => ['US', 'New brand ' + i]),
    );
  if (h === 5)
    typeRows(
      'Scan ASIN blocklist',
      LIST_ROWS.asins + 2,
      Array.from({ length: 5 }, (_, i) => ['US', asin('Y', i)]),
    );
  if (h === 10) wb.type('Scan multipack', 'C2', 12);
  if (h === 8) {
    // tags given on the service by another tool (the web app)
    const res = await fetch(door.url + '/api/v3/public/tags', {
      method: 'PUT',
      headers: { authorization: 'Bearer ' + key, 'content-type': 'application/json' },
      body: JSON.stringify({ marketplace_id: 'US', tags: { [asin('T', 1)]: ['web'], [asin('T', 2)]: ['web'], [asin('T', 3)]: ['web'] } }),
    });
    if (res.status >= 300) throw new Error('tags from elsewhere: ' + res.status + ' ' + (await res.text()));
  }
}

function ensureTrigger(rt: Runtime, handler: string, documentId: string): void {
  // What startScan does (ensureImportTrigger): one hourly trigger per user and document.
  if (rt.triggers.records.some((t) => t.handler === handler)) return;
  const now = rt.state.clock.now();
  rt.triggers.records.push({
    uid: String(now),
    handler,
    user: OWNER,
    eventType: 'CLOCK',
    source: 'CLOCK',
    sourceId: documentId,
    nextAt: now + HOUR,
    everyMs: HOUR,
  });
}

/** The day before (a quota day earlier): settings, the six lists typed and synced by hand. */
function theDayBefore(rt: Runtime, wb: Workbook, apiKey: string, serviceUrl: string): void {
  rt.open();
  rt.run('menuSettings');
  rt.scriptRun('saveSettings', [{ apiKey, serviceUrl }]);
  rt.scriptRun('setUpLists');
  fillLists(wb);
  for (let i = 0; i < 20; i++) if ((rt.scriptRun('syncNow', [false]) as { done: boolean }).done) break;
  const eve = rt.scriptRun('getListsStatus') as { lists: Array<{ title: string; count: number | null; state: string | null }> };
  if (eve.lists.some((l) => l.state !== 'synced')) throw new Error('the day before: ' + JSON.stringify(eve.lists));
}

async function runDay(opts: DayOptions): Promise<Record<string, number | string>> {
  const clock = new SharedClock(EVE);
  const door = await startWorkerService(clock, opts.service);
  const { rt, wb } = dayRuntime(opts, clock);
  const ledger = new Ledger(rt);
  const label = opts.naive ? 'naive' : 'add-on';
  const out: Record<string, number | string> = {};
  try {
    theDayBefore(rt, wb, opts.service.apiKey, door.url);
    const listRequests0 = await door.listRequests();
    rt.advance(DAY_START - clock.now());
    ledger.run('set-up', () => {
      rt.open();
      rt.scriptRun('setFormulaKeySharing', [true]);
      if (opts.naive) {
        rt.properties.script.set('naive.settings', JSON.stringify({ url: door.url, key: opts.service.apiKey }));
        ensureTrigger(rt, 'benchNaiveLists', wb.id);
      } else rt.scriptRun('setAutoSync', [true]);
    });
    // The formula typed once, in the morning.
    ledger.run('reopenings', () => wb.type('Ids', 'B2', `=ASIN_FROM_UPC(A2:A${CELLS + 1})`));
    const started: number[] = [];
    let reopened = 0;
    let actions = 0;
    let firstTab: number | null = null;
    for (let h = 1; h <= DAY_HOURS; h++) {
      rt.advance(HOUR);
      const k = SCAN_HOURS.indexOf(h);
      if (k >= 0) {
        if (opts.naive) {
          // The naive script's own bookkeeping (its keys, not the add-on's) of a scan uploaded for it.
          started.push(opts.scanIds[k]);
          rt.properties.script.set('naive.scans', JSON.stringify(started));
          ensureTrigger(rt, 'benchNaiveHourly', wb.id);
        } else {
          // New scan from the sidebar: the add-on uploads, records the scan and makes sure of its trigger.
          const id = ledger.run('scans started', () => startFromSidebar(rt, k));
          started.push(id);
          await finished(opts.service, id);
        }
      }
      ledger.run('trigger', () => {
        const fired = rt.runDueTriggers();
        const bad = fired.find((f) => !f.ok);
        if (bad) throw new Error(`${label} ${h}:00 trigger ${bad.handler}: ${bad.error}`);
      });
      // The first result tab the trigger wrote, as the seller sees it (a tab named after the scan).
      if (!opts.naive && firstTab === null && wb.sheetNames().includes(scanName(0))) firstTab = started[0];
      if (reopened < REOPENINGS) {
        reopened++;
        ledger.run('reopenings', () => {
          if (opts.naive) for (const key of rt.caches.document!.keys()) rt.caches.document!.remove(key);
          rt.open();
          rt.recalculate();
        });
      }
      // Result-row work: ten sidebar actions an hour once a result tab exists (the naive day changes
      // only the trigger and the formula cache, so it does not repeat them).
      for (let i = 0; i < 10 && actions < ROW_ACTIONS && firstTab !== null && !opts.naive; i++, actions++) {
        ledger.run('result rows', () => rt.scriptRun('openResultTab', [firstTab]));
      }
      // The seller's list edits (the automatic sync, on the trigger above, picks them up).
      await listsEdits(h, wb, door, opts.service.apiKey);
    }
    const u = rt.quotaUsage();
    const imported = opts.naive ? started.filter((id) => rt.properties.script.get('naive.done.' + id)).length : importedTabs(rt, started);
    out[`${label}: scans imported by the trigger`] = `${imported} of ${started.length}`;
    // The premise: every scan of the day imported by the trigger (else the quota shares above measure less work).
    if (started.length !== SCAN_LINES.length || imported !== started.length)
      throw new Error(`${label}: the trigger imported ${imported} of ${started.length} scans (${SCAN_LINES.length} started)`);
    out[`${label}: reopenings / result-row actions`] = `${reopened} / ${actions}`;
    out[`${label}: URL Fetch calls (consumer limit 20,000)`] = `${u.urlFetchCalls.used} (${pct(u.urlFetchCalls.used, 20_000)})`;
    out[`${label}: property reads/writes (consumer limit 50,000)`] =
      `${u.propertiesReadWrite.used} (${pct(u.propertiesReadWrite.used, 50_000)})`;
    out[`${label}: trigger runtime min (consumer limit 90)`] =
      `${(u.triggerRuntimeMs.used / 60_000).toFixed(1)} (${pct(u.triggerRuntimeMs.used, 90 * 60_000)})`;
    out[`${label}: URL Fetch data received MB (no published limit now; was 100)`] = (u.urlFetchBytesReceived.used / 1048576).toFixed(1);
    const trig = rt.executions.filter((e) => e.kind === 'installable-trigger');
    out[`${label}: trigger runs / longest s (limit 360)`] =
      `${trig.length} / ${(Math.max(0, ...trig.map((e) => e.durationMs)) / 1000).toFixed(1)}`;
    const cf = rt.executions.filter((e) => e.kind === 'custom-function');
    out[`${label}: formula executions / longest s (limit 30)`] =
      `${cf.length} / ${(Math.max(0, ...cf.map((e) => e.durationMs)) / 1000).toFixed(1)}`;
    const failed = rt.executions.filter((e) => !e.ok);
    out[`${label}: failed executions`] = failed.length ? `${failed.length} (first: ${failed[0].functionName}: ${failed[0].error})` : 0;
    for (const [what, s] of ledger.by) {
      out[`${label}, ${what}: URL Fetch calls / property r+w / trigger min / executions`] =
        `${s.fetch} / ${s.props} / ${(s.triggerMs / 60_000).toFixed(1)} / ${s.executions}`;
    }
    // The lists sync runs inside the trigger's executions; its own share of URL Fetch is counted at the front door.
    out[`${label}, lists sync: URL Fetch calls (in the trigger's above)`] = (await door.listRequests()) - listRequests0;
    // Its runtime: the naive sync has its own trigger; the add-on's shares the import trigger and logs its seconds.
    const listsMs = opts.naive
      ? rt.executions.filter((e) => e.functionName === 'benchNaiveLists' && e.startedAt >= DAY_START).reduce((n, e) => n + e.durationMs, 0)
      : rt.logs.reduce((n, l) => n + 1000 * Number((/automatic lists sync: .*\((\d+(?:\.\d+)?) s\)/.exec(l) || [])[1] || 0), 0);
    out[`${label}, lists sync: trigger runtime min (in the trigger's above)`] = (listsMs / 60_000).toFixed(1);
    const synced = rt.scriptRun('getListsStatus') as { lists: Array<{ title: string; count: number | null; lastSync: string | null }> };
    out[`${label}, lists sync: entries / last sync per list`] = synced.lists
      .map((l) => `${l.title} ${l.count} / ${l.lastSync ? l.lastSync.slice(11, 16) : '–'}`)
      .join(', ');
    out[`${label}, lists sync: 3 tags given on the service at 14:00 are in the sheet`] = String(tagRows(wb) === 3);
    out[`${label}: left today for everything else`] =
      `${20_000 - u.urlFetchCalls.used} URL Fetch calls, ${50_000 - u.propertiesReadWrite.used} property r+w, ${((90 * 60_000 - u.triggerRuntimeMs.used) / 60_000).toFixed(1)} min of trigger runtime`;
  } finally {
    await rt.stop();
    await door.stop();
  }
  return out;
}

/** The day's scans whose result tab the Scans list names (what the seller sees), after the quotas were read. */
function importedTabs(rt: Runtime, ids: number[]): number {
  const page = rt.scriptRun('listScans', [1]) as { scans: Array<{ scanId: number; resultSheet: string | null }> };
  return ids.filter((id) => page.scans.some((s) => s.scanId === id && !!s.resultSheet)).length;
}

/** Rows of the tags tab holding the tags given on the service. */
function tagRows(wb: Workbook): number {
  const sh = wb.requireSheet('Scan tags');
  let n = 0;
  for (let r = 2; r <= sh.lastRow(); r++) if (String(wb.cell('Scan tags', 'B' + r).value).startsWith('T')) n++;
  return n;
}

function pct(used: number, limit: number): string {
  return ((100 * used) / limit).toFixed(1) + ' %';
}

export async function benchBusyDay(): Promise<Record<string, number | string>> {
  const s = sampleIndex();
  const pool = Array.from(s.asinsByUpc.keys()).sort().slice(0, DISTINCT);
  const upcs = Array.from({ length: CELLS }, (_x, i) => pool[(i * 7) % DISTINCT]);
  const service = await spawnService({ SCAN_SERVICE_SPEED: '100000000' });
  const out: Record<string, number | string> = {};
  try {
    const scanIds: number[] = [];
    for (let i = 0; i < SCAN_LINES.length; i++)
      scanIds.push(await uploadScan(service, SCAN_LINES[i], `Supplier ${i + 1} (${SCAN_LINES[i]} lines)`));
    out['day: scans (lines)'] = SCAN_LINES.join(', ');
    out['day: formula cells / distinct UPCs'] = `${CELLS} / ${DISTINCT}`;
    Object.assign(out, await runDay({ naive: false, service, scanIds, upcs }));
    Object.assign(out, await runDay({ naive: true, service, scanIds, upcs }));
  } finally {
    await service.stop();
  }
  return out;
}

if (require.main === module) runAlone(benchBusyDay);
