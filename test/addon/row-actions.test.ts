/**
 * Row actions (issue 11) end to end: the BUILT add-on in the local runtime, the local Scan Service
 * (child process, behind the recording proxy). A scan is imported into a result tab; rows are
 * selected and sent to the lists: the list tables, the service (one request per area), the sync's
 * base (the next sync has nothing to do), the marks on the result tab, undo, bad selections, and the
 * next scan of the same price list applying the lists.
 */
import type { SpawnedService } from '../../emulator/service/spawn';
import { Workbook } from '../../emulator/gas/spreadsheet';
import type { Runtime } from '../../emulator/gas';
import { connect, runtime, startFaultProxy, thrown, type FaultProxy, type Seen } from './scanflow-helpers';
import { startImportService, supplierRows, uploadScan, waitFinished } from './import-helpers';
import { tab, typeRow } from './lists-helpers';

jest.setTimeout(120_000);

const KEYS = Array.from({ length: 12 }, (_, i) => `act-key-${String(i).padStart(2, '0')}`);
let nextKey = 0;
let service: SpawnedService;
let proxy: FaultProxy;

beforeAll(async () => {
  // Real time on the service's side: its rate window is opened wide; the add-on still paces itself.
  service = await startImportService({ SCAN_SERVICE_API_KEYS: KEYS.join(','), SCAN_SERVICE_BULK_RATE_LIMIT: '100000' });
  proxy = await startFaultProxy(service.url);
}, 60_000);
afterAll(async () => {
  await proxy?.stop();
  await service?.stop();
});

async function call(key: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(service.url + path, {
    method,
    headers: { authorization: 'Bearer ' + key, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

interface World {
  rt: Runtime;
  wb: Workbook;
  key: string;
  scanId: number;
  sheet: string;
}

async function importInto(rt: Runtime, key: string, rows: number): Promise<{ scanId: number; sheet: string }> {
  const scanId = await uploadScan({ url: service.url, apiKey: key }, supplierRows(rows, 0), 'Price list');
  await waitFinished({ url: service.url, apiKey: key }, scanId);
  let p: any;
  do p = rt.scriptRun('importScan', [scanId, null]);
  while (!p.done);
  return { scanId, sheet: p.sheetName };
}

async function world(rows = 40): Promise<World> {
  const key = KEYS[nextKey++];
  const wb = new Workbook({ name: 'Sourcing' });
  const rt = runtime(wb);
  connect(rt, proxy.url, key);
  const { scanId, sheet } = await importInto(rt, key, rows);
  return { rt, wb, key, scanId, sheet };
}

function select(wb: Workbook, sheet: string, r1: number, r2: number): void {
  const s = wb.requireSheet(sheet);
  wb.activeSheet = s;
  wb.activeRange = { sheet: s, r1, c1: 3, r2, c2: 5 };
}

/** Result tab rows as objects by header (row: sheet row). */
function rowsOf(wb: Workbook, sheet: string): Array<Record<string, any>> {
  const v = tab(wb, sheet);
  const h = v[0] as string[];
  return v.slice(1).map((r, i) => {
    const o: Record<string, any> = { row: i + 2 };
    h.forEach((name, j) => {
      if (!(name in o)) o[name] = r[j];
    });
    // the add-on's mark columns are the last of their name
    for (const name of ['List tags', 'List note', 'List']) if (h.lastIndexOf(name) >= 0) o[name] = r[h.lastIndexOf(name)];
    return o;
  });
}

const listRequests = (seen: Seen[]) => seen.filter((s) => !s.path.startsWith('/api/v3/scans'));
const byList = (r: any, id: string) => r.lists.find((l: any) => l.list === id);
const lastExecution = (rt: Runtime) => rt.executions[rt.executions.length - 1];

test('each action on one row: the list table, exactly that entry on the service in one request, the mark on the tab', async () => {
  const w = await world();
  const rows = rowsOf(w.wb, w.sheet);
  const acme = rows.find((r) => r.Brand === 'Acme')!;
  select(w.wb, w.sheet, acme.row, acme.row);

  const preview = w.rt.scriptRun('previewRowAction', ['blockBrands']) as any;
  expect(preview).toMatchObject({ summary: 'Block 1 brand (US): Acme', count: 1, selected: 1, skipped: [], sheetName: w.sheet });
  await proxy.reset();
  const r = w.rt.scriptRun('applyRowAction', ['blockBrands']) as any;
  expect(r.message).toBe('Done: Block 1 brand (US): Acme.');
  expect(listRequests(await proxy.seen()).map((s) => `${s.method} ${s.path}`)).toEqual(['POST /api/v3/brand-blocklist']);
  expect(tab(w.wb, 'Scan brand blocklist')).toEqual([
    ['Marketplace', 'Brand'],
    ['US', 'Acme'],
  ]);
  expect((await call(w.key, 'GET', '/api/v3/brand-blocklist?per_page=1000')).data.map((b: any) => b.name)).toEqual(['Acme']);
  // every Acme row is marked, none is removed; the tab's filter now covers the mark columns (a sort keeps them with their rows)
  const width = (tab(w.wb, w.sheet)[0] as string[]).length;
  expect((tab(w.wb, w.sheet)[0] as string[]).slice(-3)).toEqual(['List tags', 'List note', 'List']);
  const f = w.wb.requireSheet(w.sheet).filter!;
  expect({ r1: f.r1, c1: f.c1, r2: f.r2, c2: f.c2 }).toEqual({ r1: 1, c1: 1, r2: rows.length + 1, c2: width });
  const after = rowsOf(w.wb, w.sheet);
  expect(after.length).toBe(rows.length);
  expect(after.filter((x) => x.List === 'blocked brand').map((x) => x.row)).toEqual(
    rows.filter((x) => x.Brand === 'Acme').map((x) => x.row),
  );

  const other = rows.find((x) => x.row !== acme.row && x.Brand === 'Acme')!;
  const one = async (action: string, arg: unknown, path: string, method = 'POST') => {
    select(w.wb, w.sheet, other.row, other.row);
    await proxy.reset();
    const res = w.rt.scriptRun('applyRowAction', [action, arg]) as any;
    expect(res.count).toBe(1);
    expect(listRequests(await proxy.seen()).map((s) => `${s.method} ${s.path}`)).toEqual([`${method} ${path}`]);
    return res;
  };
  await one('blockAsins', null, '/api/v3/asin-blocklist');
  expect(tab(w.wb, 'Scan ASIN blocklist').slice(1)).toEqual([['US', other.ASIN]]);
  await one('markNotMatch', null, '/api/v3/listing-matches');
  expect(tab(w.wb, 'Scan listing matches').slice(1)).toEqual([['US', other.Identifier, other.ASIN, false]]);
  expect(rowsOf(w.wb, w.sheet).find((x) => x.row === other.row)!.List).toBe('blocked brand, blocked ASIN, not a match');
  await one('confirmMatch', null, '/api/v3/listing-matches');
  expect(tab(w.wb, 'Scan listing matches').slice(1)).toEqual([['US', other.Identifier, other.ASIN, true]]);
  expect(
    (await call(w.key, 'GET', '/api/v3/listing-matches?per_page=1000')).data.map((m: any) => [m.identifier, m.asin, m.is_match]),
  ).toEqual([[other.Identifier, other.ASIN, true]]);
  await one('setUnitsPerOrder', 6, '/api/v3/multipack-corrections');
  expect(tab(w.wb, 'Scan multipack').slice(1)).toEqual([['US', other.ASIN, 6]]);
  await one('addTags', 'promising, keep', '/api/v3/public/tags', 'PUT');
  expect(await call(w.key, 'GET', '/api/v3/public/tags?marketplace_id=US')).toEqual({ [other.ASIN]: ['keep', 'promising'] });
  await one('addTags', 'call', '/api/v3/public/tags', 'PUT');
  expect(tab(w.wb, 'Scan tags').slice(1)).toEqual([['US', other.ASIN, 'call, keep, promising']]);
  await one('addNote', 'MOQ 12 =1+1', '/api/v3/public/notes');
  const notes = await call(w.key, 'GET', '/api/v3/public/notes');
  expect(notes.map((n: any) => [n.asin, n.note])).toEqual([[other.ASIN, 'MOQ 12 =1+1']]);
  expect(tab(w.wb, 'Scan notes').slice(1)).toEqual([['US', other.ASIN, 'MOQ 12 =1+1', String(notes[0].id)]]);
  const marked = rowsOf(w.wb, w.sheet).find((x) => x.row === other.row)!;
  expect(marked).toMatchObject({ 'List tags': 'call, keep, promising', 'List note': 'MOQ 12 =1+1', List: 'blocked brand, blocked ASIN' });
  // the supplier's own "Note" column is left alone
  expect(marked.Note).toBe(other.Note);
  await w.rt.stop();
});

test('the Lists status after a row action names the tab and counts the entries, not "not set up · not synced yet" (issue 27)', async () => {
  const w = await world();
  const rows = rowsOf(w.wb, w.sheet);
  const brands = (st: any) => st.lists.find((l: any) => l.list === 'brands');
  expect(brands(w.rt.scriptRun('getListsStatus'))).toMatchObject({ sheetName: null, count: null, lastSync: null });
  const acme = rows.find((r) => r.Brand === 'Acme')!;
  select(w.wb, w.sheet, acme.row, acme.row);
  const r = w.rt.scriptRun('applyRowAction', ['blockBrands']) as any;
  expect(brands(w.rt.scriptRun('getListsStatus'))).toEqual({
    list: 'brands',
    title: expect.any(String),
    rangeName: 'SCAN_BRAND_BLOCKLIST',
    sheetName: 'Scan brand blocklist',
    count: 1,
    lastSync: null,
    lastResult: 'Row action: Block 1 brand (US): Acme',
    state: null,
  });
  w.rt.scriptRun('undoRowAction', [r.id]);
  expect(brands(w.rt.scriptRun('getListsStatus'))).toMatchObject({ count: 0, lastResult: 'Undo: Block 1 brand (US): Acme' });
  // A sync afterwards writes its own status (time, state, count).
  w.rt.scriptRun('syncNow', []);
  expect(brands(w.rt.scriptRun('getListsStatus'))).toMatchObject({ count: 0, lastSync: expect.any(String) });
  await w.rt.stop();
});

test('500 selected rows: one request per area, one write of each list table; the figures', async () => {
  const w = await world(520);
  select(w.wb, w.sheet, 2, 501);
  const figures: string[] = [];
  const run = async (action: string, arg: unknown) => {
    await proxy.reset();
    const r = w.rt.scriptRun('applyRowAction', [action, arg]) as any;
    const ex = lastExecution(w.rt);
    const seen = listRequests(await proxy.seen());
    figures.push(
      `${action}: ${r.count} entries, ${seen.length} requests, ${ex.counters.urlFetchCalls} fetch calls, ${ex.counters.sheetReadCalls} sheet reads, ${ex.counters.sheetWriteCalls} sheet writes, ${(ex.durationMs / 1000).toFixed(1)} modelled s`,
    );
    return { r, seen, ex };
  };
  const asins = rowsOf(w.wb, w.sheet)
    .slice(0, 500)
    .map((x) => x.ASIN);
  const brands = new Set(
    rowsOf(w.wb, w.sheet)
      .slice(0, 500)
      .map((x) => x.Brand)
      .filter(Boolean),
  );

  const b = await run('blockBrands', null);
  expect(b.seen.map((s) => s.method + ' ' + s.path)).toEqual(['POST /api/v3/brand-blocklist']);
  expect(b.r.count).toBe(brands.size);
  const a = await run('blockAsins', null);
  expect(a.seen.map((s) => s.method + ' ' + s.path)).toEqual(['POST /api/v3/asin-blocklist']);
  expect(JSON.parse(a.seen[0].body).asins.length).toBe(500);
  expect(
    tab(w.wb, 'Scan ASIN blocklist')
      .slice(1)
      .map((x) => x[1]),
  ).toEqual(asins);
  const m = await run('markNotMatch', null);
  expect(m.seen.map((s) => s.method + ' ' + s.path)).toEqual(['POST /api/v3/listing-matches']);
  const u = await run('setUnitsPerOrder', '2');
  expect(u.seen.map((s) => s.method + ' ' + s.path)).toEqual(['POST /api/v3/multipack-corrections']);
  const t = await run('addTags', ['bulk']);
  expect(t.seen.map((s) => s.method + ' ' + s.path)).toEqual(['PUT /api/v3/public/tags']);
  // notes have no bulk request in the API: one per note, sent in parallel waves
  const n = await run('addNote', 'checked');
  expect(n.seen.length).toBe(500);
  expect(n.seen.every((s) => s.method === 'POST' && s.path === '/api/v3/public/notes')).toBe(true);
  expect(n.ex.counters.urlFetchCalls).toBe(20);
  // one setValues per list table: its rows grow in one write (header + 500 rows)
  for (const name of ['Scan ASIN blocklist', 'Scan listing matches', 'Scan multipack', 'Scan tags', 'Scan notes'])
    expect(tab(w.wb, name).length).toBe(501);
  // one fetch, and two sheet writes: the list table (one setValues) and the result tab's mark columns (one setValues)
  for (const x of [a, m, u, t]) expect([x.ex.counters.urlFetchCalls, x.ex.counters.sheetWriteCalls]).toEqual([1, 2]);
  console.log('Row actions on 500 selected rows:\n' + figures.join('\n'));
  await w.rt.stop();
});

test('a sync right after an action has nothing to do; a sync refreshes the List tags / List note columns', async () => {
  const w = await world();
  w.rt.scriptRun('setUpLists');
  // every list synced once with an entry, so each has a base
  typeRow(w.wb, 'Scan tags', 2, ['US', 'B0SEED00001', 'seed']);
  typeRow(w.wb, 'Scan notes', 2, ['US', 'B0SEED00001', 'seed']);
  typeRow(w.wb, 'Scan brand blocklist', 2, ['US', 'Seed']);
  typeRow(w.wb, 'Scan ASIN blocklist', 2, ['US', 'B0SEED00001']);
  typeRow(w.wb, 'Scan multipack', 2, ['US', 'B0SEED00001', 2]);
  w.rt.scriptRun('syncNow');
  const rows = rowsOf(w.wb, w.sheet);
  select(w.wb, w.sheet, 2, 4);
  w.rt.scriptRun('applyRowAction', ['blockAsins']);
  w.rt.scriptRun('applyRowAction', ['addTags', 'x']);
  w.rt.scriptRun('applyRowAction', ['addNote', 'n']);
  w.rt.scriptRun('applyRowAction', ['setUnitsPerOrder', 3]);
  w.rt.scriptRun('applyRowAction', ['markNotMatch']);
  // the actions moved the sync's base too: a row the user deletes from a table right after is deleted
  // on the service (were the base not moved, the sync would read the entry as new on the service and put the row back)
  expect(tab(w.wb, 'Scan ASIN blocklist')[4]).toEqual(['US', rows[2].ASIN]);
  w.wb.type('Scan ASIN blocklist', 'A5', '');
  w.wb.type('Scan ASIN blocklist', 'B5', '');
  const again = w.rt.scriptRun('syncNow') as any;
  expect(again.lists.map((l: any) => [l.list, l.state])).toEqual([
    ['tags', 'unchanged'],
    ['notes', 'unchanged'],
    ['brands', 'unchanged'],
    ['asins', 'synced'],
    ['matches', 'unchanged'],
    ['multipack', 'unchanged'],
  ]);
  expect(byList(again, 'asins')).toMatchObject({
    toService: { added: 0, changed: 0, deleted: 1 },
    toSheet: { added: 0, changed: 0, deleted: 0 },
  });
  expect((await call(w.key, 'GET', '/api/v3/asin-blocklist?per_page=1000')).data.map((x: any) => x.asin).sort()).toEqual(
    ['B0SEED00001', rows[0].ASIN, rows[1].ASIN].sort(),
  );
  // entries from elsewhere reach the result tab through a sync
  const target = rows[5];
  await call(w.key, 'PUT', '/api/v3/public/tags', { marketplace_id: 'US', tags: { [target.ASIN]: ['from web'] } });
  await call(w.key, 'POST', '/api/v3/public/notes', { marketplace_id: 'US', asin: target.ASIN, note: 'web note' });
  await call(w.key, 'POST', '/api/v3/brand-blocklist', { marketplace_id: 'US', brands: ['Nobody'] });
  w.rt.scriptRun('syncNow');
  expect(rowsOf(w.wb, w.sheet).find((x) => x.row === target.row)).toMatchObject({
    'List tags': 'from web',
    'List note': 'web note',
    List: '',
  });
  expect(rowsOf(w.wb, w.sheet).find((x) => x.row === 2)).toMatchObject({
    'List tags': 'x',
    'List note': 'n',
    List: 'blocked ASIN, not a match',
  });
  await w.rt.stop();
});

test('undo reverses the sheet rows and the service entries of the action (and leaves the rest)', async () => {
  const w = await world();
  const rows = rowsOf(w.wb, w.sheet);
  select(w.wb, w.sheet, 2, 2);
  w.rt.scriptRun('applyRowAction', ['blockAsins']);
  select(w.wb, w.sheet, 3, 5);
  const blocked = w.rt.scriptRun('applyRowAction', ['blockAsins']) as any;
  w.rt.scriptRun('applyRowAction', ['addTags', 'temp']);
  const noted = w.rt.scriptRun('applyRowAction', ['addNote', 'oops']) as any;
  const list = (w.rt.scriptRun('listRowActions') as any).recent as any[];
  expect(list.map((x) => x.summary)).toEqual([
    `Add a note to 3 ASINs (US): ${rows[1].ASIN}, ${rows[2].ASIN}, ${rows[3].ASIN}`,
    `Tag 3 ASINs with temp (US): ${rows[1].ASIN}, ${rows[2].ASIN}, ${rows[3].ASIN}`,
    `Block 3 ASINs (US): ${rows[1].ASIN}, ${rows[2].ASIN}, ${rows[3].ASIN}`,
    `Block 1 ASIN (US): ${rows[0].ASIN}`,
  ]);
  await proxy.reset();
  expect((w.rt.scriptRun('undoRowAction', [blocked.id]) as any).message).toBe(
    `Undone: Block 3 ASINs (US): ${rows[1].ASIN}, ${rows[2].ASIN}, ${rows[3].ASIN}.`,
  );
  expect(listRequests(await proxy.seen()).map((s) => s.method + ' ' + s.path)).toEqual(['DELETE /api/v3/asin-blocklist']);
  expect(tab(w.wb, 'Scan ASIN blocklist').slice(1)).toEqual([['US', rows[0].ASIN]]);
  expect((await call(w.key, 'GET', '/api/v3/asin-blocklist?per_page=1000')).data.map((x: any) => x.asin)).toEqual([rows[0].ASIN]);
  expect(
    rowsOf(w.wb, w.sheet)
      .slice(0, 4)
      .map((x) => x.List),
  ).toEqual(['blocked ASIN', '', '', '']);
  w.rt.scriptRun('undoRowAction', [noted.id]);
  expect(await call(w.key, 'GET', '/api/v3/public/notes')).toEqual([]);
  expect(tab(w.wb, 'Scan notes').slice(1)).toEqual([]);
  const tagsUndo = ((w.rt.scriptRun('listRowActions') as any).recent as any[]).find((x) => x.summary.startsWith('Tag '));
  // the user changed one of the tagged entries since: that one stays as the user left it
  expect(tab(w.wb, 'Scan tags')[3]).toEqual(['US', rows[3].ASIN, 'temp']);
  w.wb.type('Scan tags', 'C4', 'temp, mine');
  expect((w.rt.scriptRun('undoRowAction', [tagsUndo.id]) as any).message).toBe(
    `Undone: Tag 3 ASINs with temp (US): ${rows[1].ASIN}, ${rows[2].ASIN}, ${rows[3].ASIN}. 1 entry was changed since: left as it is.`,
  );
  expect(await call(w.key, 'GET', '/api/v3/public/tags?marketplace_id=US')).toEqual({ [rows[3].ASIN]: ['temp'] });
  expect(tab(w.wb, 'Scan tags').slice(1)).toEqual([['US', rows[3].ASIN, 'temp, mine']]);
  expect(
    rowsOf(w.wb, w.sheet)
      .slice(0, 4)
      .map((x) => x['List tags']),
  ).toEqual(['', '', '', 'mine, temp']);
  expect(thrown(() => w.rt.scriptRun('undoRowAction', [blocked.id]))).toBe(
    `"Block 3 ASINs (US): ${rows[1].ASIN}, ${rows[2].ASIN}, ${rows[3].ASIN}" was already undone.`,
  );
  expect(thrown(() => w.rt.scriptRun('undoRowAction', ['nope']))).toBe(
    'That action is no longer kept (actions are kept for this session only), so it cannot be undone here.',
  );
  await w.rt.stop();
});

test('bad selections are answered clearly and change nothing', async () => {
  const w = await world();
  w.wb.addSheet('Mine');
  w.wb.type('Mine', 'A1', 'B000000001');
  w.wb.activeSheet = w.wb.requireSheet('Mine');
  w.wb.activeRange = { sheet: w.wb.requireSheet('Mine'), r1: 1, c1: 1, r2: 1, c2: 1 };
  expect(thrown(() => w.rt.scriptRun('applyRowAction', ['blockAsins']))).toBe(
    '"Mine" is not a scan\'s result tab. Select rows in a tab the add-on imported (Scans → Import).',
  );
  select(w.wb, w.sheet, 1, 1);
  expect(thrown(() => w.rt.scriptRun('previewRowAction', ['blockBrands']))).toBe(
    'The header row is not a product. Select product rows below it.',
  );
  select(w.wb, w.sheet, 500, 510);
  expect(thrown(() => w.rt.scriptRun('previewRowAction', ['blockBrands']))).toBe(
    `Row 500 is below the last product of "${w.sheet}". Select product rows.`,
  );
  expect(thrown(() => w.rt.scriptRun('previewRowAction', ['setUnitsPerOrder', '1.5']))).toBe(
    'Units per order must be a whole number, 1 or more (got "1.5").',
  );
  expect(thrown(() => w.rt.scriptRun('previewRowAction', ['explode']))).toMatch(/^Unknown row action "explode"/);
  // rows without a brand are skipped and said so; the header row is left out
  const rows = rowsOf(w.wb, w.sheet);
  const blankAt = rows.map((x, i) => (x.Brand === '' ? i : -1)).filter((i) => i >= 0);
  expect(blankAt.length).toBeGreaterThan(1);
  const upTo = blankAt[1] + 2;
  select(w.wb, w.sheet, 1, upTo);
  const p = w.rt.scriptRun('previewRowAction', ['blockBrands']) as any;
  const selected = upTo - 1;
  const noBrand = rows.slice(0, selected).filter((x) => x.Brand === '').length;
  expect(noBrand).toBe(2);
  expect(p.skipped).toEqual(['The header row is not a product: left out', `2 of the ${selected} selected rows have no brand: skipped`]);
  const brands = Array.from(
    new Set(
      rows
        .slice(0, selected)
        .map((x) => x.Brand)
        .filter(Boolean),
    ),
  );
  expect(p.summary).toBe(`Block ${brands.length} brands (US): ${brands.join(', ')}`);
  // a preview changes nothing: no list tab was set up
  expect(w.wb.sheetNames().filter((n) => n.startsWith('Scan '))).toEqual([]);
  select(w.wb, w.sheet, blankAt[0] + 2, blankAt[0] + 2);
  expect(w.rt.scriptRun('applyRowAction', ['blockBrands'])).toMatchObject({
    count: 0,
    id: null,
    message: 'Nothing to do. The selected row has no brand: skipped.',
  });
  await w.rt.stop();
});

test('the next scan of the same price list drops the blocked brand and ASIN and uses the corrected units in profit', async () => {
  const w = await world();
  const rows = rowsOf(w.wb, w.sheet);
  const bait = rows.find((x) => x.Brand === '=BRAND()')!;
  const [blockedAsin, sixPack] = rows.filter((x) => x.Brand === 'Acme' && typeof x.Profit === 'number');
  select(w.wb, w.sheet, bait.row, bait.row);
  w.rt.scriptRun('applyRowAction', ['blockBrands']);
  select(w.wb, w.sheet, blockedAsin.row, blockedAsin.row);
  w.rt.scriptRun('applyRowAction', ['blockAsins']);
  select(w.wb, w.sheet, sixPack.row, sixPack.row);
  w.rt.scriptRun('applyRowAction', ['setUnitsPerOrder', 6]);

  const next = await importInto(w.rt, w.key, 40);
  const again = rowsOf(w.wb, next.sheet);
  expect(again.some((x) => x.Brand === '=BRAND()')).toBe(false);
  expect(again.some((x) => x.ASIN === blockedAsin.ASIN)).toBe(false);
  expect(again.length).toBe(rows.length - rows.filter((x) => x.Brand === '=BRAND()').length - 1);
  const six = again.find((x) => x.ASIN === sixPack.ASIN)!;
  expect(six['Units/order']).toBe(6);
  expect(six['Total cost']).toBeCloseTo(6 * sixPack['Total cost'], 2);
  expect(six.Profit).toBeLessThan(sixPack.Profit);
  await w.rt.stop();
});

test('from the menu: the prompt, the preview to confirm, a toast; Undo last row action', async () => {
  const w = await world();
  const rows = rowsOf(w.wb, w.sheet);
  select(w.wb, w.sheet, 2, 3);
  w.rt.state.uiAnswers.push({ button: 'OK', text: '4' }, { button: 'YES' });
  w.rt.scriptRun('menuSetUnits');
  const shown = w.rt.uiEvents.filter((e) => e.kind === 'prompt' || e.kind === 'alert' || e.kind === 'toast');
  expect(shown.map((e) => (e.kind === 'toast' ? e.message : e.prompt))).toEqual([
    'Units per order (a whole number, 1 or more)',
    `Set 4 units per order for 2 ASINs (US): ${rows[0].ASIN}, ${rows[1].ASIN}\n\nGo ahead?`,
    `Done: Set 4 units per order for 2 ASINs (US): ${rows[0].ASIN}, ${rows[1].ASIN}.`,
  ]);
  expect(tab(w.wb, 'Scan multipack').slice(1)).toEqual([
    ['US', rows[0].ASIN, 4],
    ['US', rows[1].ASIN, 4],
  ]);
  // NO at the preview: nothing happens
  w.rt.state.uiAnswers.push({ button: 'NO' });
  w.rt.scriptRun('menuBlockAsins');
  expect(w.wb.sheetNames()).toContain('Scan ASIN blocklist');
  expect(tab(w.wb, 'Scan ASIN blocklist').slice(1)).toEqual([]);
  w.rt.state.uiAnswers.push({ button: 'YES' });
  w.rt.scriptRun('menuUndoRowAction');
  expect(tab(w.wb, 'Scan multipack').slice(1)).toEqual([]);
  expect((await call(w.key, 'GET', '/api/v3/multipack-corrections?per_page=1000')).data).toEqual([]);
  await w.rt.stop();
});

test('Confirm match and Not a match show each selected row with its picture beside its title; a Picture cell edited into anything but an https IMAGE shows none (issue 36)', async () => {
  const w = await world(6);
  const rows = rowsOf(w.wb, w.sheet);
  const header = tab(w.wb, w.sheet)[0] as string[];
  const pic = header.indexOf('Picture') + 1;
  const formula = (r: number) => w.wb.cell(w.sheet, w.wb.a1(r, pic)).formula;
  // The premise: the import wrote a picture in each of the rows.
  expect(rows.slice(0, 4).every((r) => /^=IMAGE\("https:\/\//.test(formula(r.row)))).toBe(true);
  const [a, b, c] = rows;
  const address = formula(a.row).slice('=IMAGE("'.length, -2);
  // A seller (or anyone with edit access) overtypes two Picture cells.
  w.wb.type(w.sheet, w.wb.a1(b.row, pic), '=IMAGE("javascript:alert(1)")');
  w.wb.type(w.sheet, w.wb.a1(c.row, pic), 'see the listing');
  select(w.wb, w.sheet, a.row, c.row);
  for (const action of ['confirmMatch', 'markNotMatch']) {
    const preview = w.rt.scriptRun('previewRowAction', [action]) as any;
    expect(preview.pictures).toEqual([
      { sheetRow: a.row, supplierTitle: '', title: a.Title, picture: address },
      { sheetRow: b.row, supplierTitle: '', title: b.Title, picture: null },
      { sheetRow: c.row, supplierTitle: '', title: c.Title, picture: null },
    ]);
  }
  // Actions where a picture decides nothing carry none.
  expect((w.rt.scriptRun('previewRowAction', ['blockBrands']) as any).pictures).toBeUndefined();
  await w.rt.stop();
});
