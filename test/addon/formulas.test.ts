/**
 * Identifier formulas end to end (issue 5): the BUILT add-on's custom functions, typed into cells of
 * a workbook in the local Apps Script runtime and recalculated, against the local Scan Service
 * (spawned in a child process, here behind the fault-injecting proxy so that requests can be seen
 * and 429s injected). Calls are counted through the runtime's per-execution counters.
 */
import type { Runtime } from '../../emulator/gas';
import type { Workbook } from '../../emulator/gas/spreadsheet';
import { readCatalogRecords, SAMPLE_CATALOG_PATH } from '../../emulator/service/catalog';
import { NO_KEY_MESSAGE, NOT_FOUND } from '../../src/custom-functions/messages';
import { formulaShareKey } from '../../src/store/keys';
import { useServiceBehindProxy } from './scanflow-helpers';
import {
  EDITOR,
  OWNER,
  SHEET,
  columnValues,
  fillColumn,
  formulaRuns,
  newWorkbook,
  runtimeFor,
  sampleIndex,
  saveKey,
  upcWithCheck,
  useAddOn,
} from './formulas-helpers';

const env = useServiceBehindProxy({}, 60_000);
const opened: Runtime[] = [];

beforeAll(() => {
  sampleIndex();
}, 60_000);

afterAll(async () => {
  for (const rt of opened) await rt.stop();
});

/**
 * A workbook + runtime where the owner opened the add-on's Settings from its menu (which enables its
 * custom functions in the spreadsheet), saved a key and (unless told) shared it with formulas.
 */
function world(opts: { share?: boolean } = {}): { wb: Workbook; rt: Runtime } {
  const wb = newWorkbook();
  const rt = runtimeFor(wb);
  opened.push(rt);
  useAddOn(rt);
  saveKey(rt, env.proxy.url, env.svc.apiKey);
  if (opts.share !== false) rt.scriptRun('setFormulaKeySharing', [true]);
  return { wb, rt };
}

async function convertBodies(): Promise<string[][]> {
  return (await env.proxy.seen()).filter((s) => s.path === '/api/v3/convert').map((s) => JSON.parse(s.body).ids as string[]);
}

test('before any menu item of the add-on has run in the spreadsheet, its functions are unknown (#NAME?) and nothing is fetched; after Settings is opened from the menu they work', async () => {
  const s = sampleIndex();
  const [u1] = s.singleUpcs;
  const wb = newWorkbook();
  const rt = runtimeFor(wb);
  opened.push(rt);
  fillColumn(wb, 'A', 1, [u1]);
  // Installed, not yet used here: the spreadsheet opens (menu only, AuthMode NONE) and a formula is typed.
  rt.open();
  expect(rt.executions.at(-1)).toMatchObject({ functionName: 'onOpen', authMode: 'NONE' });
  wb.type(SHEET, 'B1', '=ASIN_FROM_UPC(A1)');
  expect(wb.cell(SHEET, 'B1').value).toBe('#NAME?');
  expect(wb.cell(SHEET, 'B1').error).toBe("Unknown function: 'ASIN_FROM_UPC'.");
  expect(formulaRuns(rt).runs).toEqual([]);
  // The owner opens Settings from the add-on menu and saves a shared key: now the function exists.
  rt.run('menuSettings');
  saveKey(rt, env.proxy.url, env.svc.apiKey);
  rt.scriptRun('setFormulaKeySharing', [true]);
  wb.type(SHEET, 'B2', '=ASIN_FROM_UPC(A1)');
  expect(wb.cell(SHEET, 'B2').value).toBe(s.asinsByUpc.get(u1)![0]);
  expect((await convertBodies()).length).toBe(1);
});

test('a range: blanks stay blank, duplicates and lost leading zeros are one id, invalid ids are marked without a call, unmatched say "not found"', async () => {
  const s = sampleIndex();
  const [u1, u2, u3] = s.singleUpcs.filter((u) => /^0[1-9]/.test(u));
  const unknown = upcWithCheck('99999999990');
  const column: unknown[] = [
    u1, // 2: text with its zero
    Number(u1), // 3: the same UPC typed as a number (zero lost): same id, no second lookup
    '', // 4: blank
    u2, // 5
    u1.slice(0, 11) + String((Number(u1[11]) + 1) % 10), // 6: bad check digit
    '12345', // 7: wrong length
    '03600029145A', // 8: letters in a barcode
    5.01234e12, // 9: digits lost (scientific notation)
    unknown, // 10: well-formed, not in the catalog
    u3, // 11
    u2, // 12: duplicate
  ];
  const { wb, rt } = world();
  fillColumn(wb, 'A', 2, column);
  const from = rt.executions.length;
  wb.type(SHEET, 'B2', '=ASIN_FROM_UPC(A2:A12)');

  expect(columnValues(wb, 'B', 2, 12)).toEqual([
    s.asinsByUpc.get(u1)![0],
    s.asinsByUpc.get(u1)![0],
    '',
    s.asinsByUpc.get(u2)![0],
    'invalid UPC: bad check digit',
    'invalid UPC: wrong length',
    'invalid UPC: letters in a barcode',
    'invalid UPC: digits lost (scientific notation); format as plain text',
    NOT_FOUND,
    s.asinsByUpc.get(u3)![0],
    s.asinsByUpc.get(u2)![0],
  ]);
  // One formula call, one request (4 distinct valid ids <= 20), and only the valid ids were sent.
  const cost = formulaRuns(rt, from);
  expect([cost.runs.length, cost.requests, cost.errors]).toEqual([1, 1, []]);
  expect((await convertBodies()).map((ids) => ids.slice().sort())).toEqual([[u1, u2, u3, unknown].sort()]);
  // A single cell gives a single value.
  wb.type(SHEET, 'D2', '=ASIN_FROM_UPC(A5)');
  expect(wb.cell(SHEET, 'D2').value).toBe(s.asinsByUpc.get(u2)![0]);
}, 30_000);

test('500 UPCs (200 distinct): distinct ids only, 20 per call in parallel waves; a recalculation makes no call; an expired cache (6 h) calls again', async () => {
  const s = sampleIndex();
  const distinct = s.singleUpcs.slice(0, 200);
  const column = Array.from({ length: 500 }, (_x, i) => distinct[(i * 7) % 200]);
  const { wb, rt } = world();
  fillColumn(wb, 'A', 2, column);
  let from = rt.executions.length;
  wb.type(SHEET, 'B2', '=ASIN_FROM_UPC(A2:A501)');
  expect(columnValues(wb, 'B', 2, 501)).toEqual(column.map((u) => s.asinsByUpc.get(u)![0]));
  let cost = formulaRuns(rt, from);
  // 200 distinct / 20 = 10 requests, in ONE fetchAll (at most 25 per wave); well inside 30 s.
  expect([cost.requests, cost.fetchAlls, cost.errors]).toEqual([10, 1, []]);
  expect(cost.maxSeconds).toBeLessThan(30);
  expect((await convertBodies()).every((ids) => ids.length === 20)).toBe(true);

  from = rt.executions.length;
  rt.recalculate();
  cost = formulaRuns(rt, from);
  expect([cost.runs.length, cost.requests]).toEqual([1, 0]);
  expect(columnValues(wb, 'B', 2, 501)).toEqual(column.map((u) => s.asinsByUpc.get(u)![0]));

  rt.advance(6 * 3600_000 + 60_000);
  from = rt.executions.length;
  rt.recalculate();
  cost = formulaRuns(rt, from);
  expect(cost.requests).toBe(10);
  expect(columnValues(wb, 'B', 2, 501)).toEqual(column.map((u) => s.asinsByUpc.get(u)![0]));
}, 40_000);

test('5,000 UPCs (2,000 distinct) in one formula: 100 requests (the floor) in 4 fetchAll waves, inside 30 s; recalculated: no request', () => {
  const s = sampleIndex();
  const pool = Array.from(s.asinsByUpc.keys()).sort().slice(0, 2000);
  const column = Array.from({ length: 5000 }, (_x, i) => pool[(i * 7) % 2000]);
  const { wb, rt } = world();
  fillColumn(wb, 'A', 2, column);
  let from = rt.executions.length;
  wb.type(SHEET, 'B2', '=ASIN_FROM_UPC(A2:A5001)');
  const cost = formulaRuns(rt, from);
  expect([cost.runs.length, cost.requests, cost.fetchAlls, cost.errors]).toEqual([1, 100, 4, []]);
  expect(cost.maxSeconds).toBeLessThan(30);
  expect(columnValues(wb, 'B', 2, 5001)).toEqual(column.map((u) => s.asinsByUpc.get(u)![0]));
  from = rt.executions.length;
  rt.recalculate();
  expect(formulaRuns(rt, from).requests).toBe(0);
  // The cache stays far below CacheService's 1,000 items.
  expect(rt.caches.document!.keys().length).toBeLessThan(200);
}, 40_000);

test('a UPC on several ASINs, in each matches mode: first = best-ranked, all = joined, spill = next columns (padded)', () => {
  const s = sampleIndex();
  const multi = s.multiUpcs[0];
  const single = s.singleUpcs[5];
  const asins = s.asinsByUpc.get(multi)!;
  expect(asins.length).toBeGreaterThan(1);
  const { wb } = world();
  fillColumn(wb, 'A', 2, [multi, single, '']);
  wb.type(SHEET, 'C2', '=ASIN_FROM_UPC(A2:A4)');
  wb.type(SHEET, 'D2', '=ASIN_FROM_UPC(A2:A4, "US", "all")');
  wb.type(SHEET, 'E2', '=ASIN_FROM_UPC(A2:A4, "US", "spill")');
  expect(columnValues(wb, 'C', 2, 4)).toEqual([asins[0], s.asinsByUpc.get(single)![0], '']);
  expect(columnValues(wb, 'D', 2, 4)).toEqual([asins.join(', '), s.asinsByUpc.get(single)![0], '']);
  const spill = (row: number) => asins.map((_a, i) => wb.cell(SHEET, String.fromCharCode(69 + i) + row).value);
  expect(spill(2)).toEqual(asins);
  expect(spill(3)).toEqual([s.asinsByUpc.get(single)![0], ...asins.slice(1).map(() => '')]);
  expect(spill(4)).toEqual(asins.map(() => ''));
  // An unknown matches value is an argument error for the formula (as Sheets' own functions do).
  wb.type(SHEET, 'K2', '=ASIN_FROM_UPC(A2, "US", "most")');
  expect(wb.cell(SHEET, 'K2').value).toBe('#ERROR!');
  expect(wb.cell(SHEET, 'K2').error).toMatch(/matches must be "first", "all" or "spill"/);
}, 30_000);

test('ASIN to identifiers: UPC_FROM_ASIN keeps leading zeros as text; IDENTIFIERS_FROM_ASIN gives a header and one column per kind', () => {
  const s = sampleIndex();
  const upc = s.singleUpcs.find((u) => u.startsWith('0'))!;
  const asin = s.asinsByUpc.get(upc)![0];
  const ids = s.idsByAsin.get(asin)!;
  const { wb } = world();
  fillColumn(wb, 'A', 2, [asin, 'B0NOTHERE0', 'x']);
  wb.type(SHEET, 'B2', '=UPC_FROM_ASIN(A2:A4)');
  expect(columnValues(wb, 'B', 2, 4)).toEqual([ids.upc![0], NOT_FOUND, 'invalid ASIN: not an identifier']);
  wb.type(SHEET, 'D1', '=IDENTIFIERS_FROM_ASIN(A2:A3)');
  expect(['D', 'E', 'F', 'G', 'H'].map((c) => wb.cell(SHEET, c + '1').value)).toEqual(['UPC', 'EAN', 'ISBN', 'GTIN', 'JAN']);
  expect(wb.cell(SHEET, 'D2').value).toBe((ids.upc ?? []).join(', '));
  expect(wb.cell(SHEET, 'E2').value).toBe((ids.ean ?? ['0' + ids.upc![0]]).join(', '));
  expect(wb.cell(SHEET, 'D3').value).toBe(NOT_FOUND);
}, 30_000);

test('a 429 storm: waits as Retry-After says, then converts everything within the 30-second limit', async () => {
  const s = sampleIndex();
  const column = s.singleUpcs.slice(300, 360); // 3 requests
  const { wb, rt } = world();
  fillColumn(wb, 'A', 2, column);
  await env.proxy.faults([
    {
      method: 'POST',
      path: '^/api/v3/convert$',
      status: 429,
      times: 5,
      headers: { 'Retry-After': '3' },
      body: '{"message":"Too Many Requests"}',
    },
  ]);
  const from = rt.executions.length;
  wb.type(SHEET, 'B2', '=ASIN_FROM_UPC(A2:A61)');
  expect(columnValues(wb, 'B', 2, 61)).toEqual(column.map((u) => s.asinsByUpc.get(u)![0]));
  const seen = await env.proxy.seen();
  expect(seen.filter((x) => x.injected).length).toBe(5);
  const cost = formulaRuns(rt, from);
  expect(cost.errors).toEqual([]);
  // At least two Retry-After waits of 3 s happened on the runtime's clock, and the call stayed inside 30 s.
  expect(cost.maxSeconds).toBeGreaterThanOrEqual(6);
  expect(cost.maxSeconds).toBeLessThan(30);
}, 30_000);

test('a 429 storm that does not end: cells say so (no #ERROR!), and the formula call ends inside 30 s', async () => {
  const s = sampleIndex();
  const column = s.singleUpcs.slice(400, 440);
  const { wb, rt } = world();
  fillColumn(wb, 'A', 2, ['', ...column]);
  await env.proxy.faults([{ method: 'POST', path: '^/api/v3/convert$', status: 429, times: 1000, headers: { 'Retry-After': '8' } }]);
  const from = rt.executions.length;
  wb.type(SHEET, 'B2', '=ASIN_FROM_UPC(A2:A42)');
  const values = columnValues(wb, 'B', 2, 42);
  expect(values[0]).toBe('');
  expect(new Set(values.slice(1))).toEqual(new Set(['not converted: service busy (too many requests); recalculate later']));
  const cost = formulaRuns(rt, from);
  expect(cost.errors).toEqual([]);
  expect(cost.maxSeconds).toBeLessThan(30);
  // It did wait (Retry-After 8 s) and tried again: 40 identifiers are 2 requests of 20, each sent at
  // least twice. Whether a second retry still fits depends on the retry's jitter (it would start about
  // 17 s in, at the edge of the 8 s a wave must have left, issue 19 item 8), so the count is not fixed;
  // the bound that matters is that the call ended inside 30 s (above).
  expect((await env.proxy.seen()).filter((x) => x.injected).length).toBeGreaterThanOrEqual(4);
  expect(cost.maxSeconds).toBeGreaterThan(8);
  // Failures are not cached: when the service is back, a recalculation converts.
  await env.proxy.reset();
  rt.recalculate();
  expect(columnValues(wb, 'B', 3, 42)).toEqual(column.map((u) => s.asinsByUpc.get(u)![0]));
}, 40_000);

test('no wave starts that cannot finish inside the 30 s (guides/sheets/functions: a custom function must return within 30 seconds): a retry due 18 s in is not sent, the cells say to recalculate, no #ERROR!', async () => {
  const s = sampleIndex();
  const column = s.singleUpcs.slice(450, 460); // one request
  const { wb, rt } = world();
  fillColumn(wb, 'A', 2, column);
  // The first answer asks to come back in 18 s; the answer after that would take 12 s (a slow service).
  await env.proxy.faults([
    { method: 'POST', path: '^/api/v3/convert$', status: 429, times: 1, headers: { 'Retry-After': '18' } },
    { method: 'POST', path: '^/api/v3/convert$', status: 503, times: 1, delayMs: 12_000 },
  ]);
  const from = rt.executions.length;
  wb.type(SHEET, 'B2', '=ASIN_FROM_UPC(A2:A11)');
  const cost = formulaRuns(rt, from);
  // The retry at 18-20 s is not sent: its wave could still be in flight at 30 s (fetchAll waits up to ~60 s).
  expect(cost.errors).toEqual([]);
  expect(cost.requests).toBe(1);
  expect(cost.maxSeconds).toBeLessThan(30);
  expect(new Set(columnValues(wb, 'B', 2, 11))).toEqual(new Set(['not converted: service busy (too many requests); recalculate later']));
  await env.proxy.reset();
}, 60_000);

test('whose key: an editor without a share sees the documented message (no call); the owner shares, the editor succeeds; unsharing stops it', async () => {
  const s = sampleIndex();
  const column = s.singleUpcs.slice(500, 505);
  const { wb, rt } = world({ share: false });
  fillColumn(wb, 'A', 2, ['', ...column]);
  // The editor even has a key of their own: formulas do not use it (a custom function cannot reach it).
  saveKey(rt, env.proxy.url, env.svc.apiKey, EDITOR);
  rt.activeUser = EDITOR;
  let from = rt.executions.length;
  wb.type(SHEET, 'B2', '=ASIN_FROM_UPC(A2:A7)');
  expect(columnValues(wb, 'B', 2, 7)).toEqual(['', ...column.map(() => NO_KEY_MESSAGE)]);
  // Issue 27 item 4: the cell names the option as Settings shows it, and what it costs the owner.
  expect(NO_KEY_MESSAGE).toMatch(
    /^Formulas are off in this spreadsheet\. Its owner turns them on in .*Settings \("Formulas in this spreadsheet run on my key"; recalculations then count against the owner's Scan Service quota\).*"Convert selected column", which uses your own key/,
  );
  expect(formulaRuns(rt, from).requests).toBe(0);
  expect(formulaRuns(rt, from).runs.map((r) => r.user)).toEqual([EDITOR]);

  // Only the owner may share: the editor gets a clear message, nothing is written.
  let failure = '';
  try {
    rt.scriptRun('setFormulaKeySharing', [true], { user: EDITOR });
  } catch (e) {
    failure = String((e as Error).message);
  }
  expect(failure).toMatch(/Only the owner of this spreadsheet \(owner@example.com\) can let its formulas use their API key/);
  expect(Object.keys(rt.properties.user(OWNER).toObject()).filter((k) => k.startsWith(formulaShareKey('')))).toEqual([]);

  from = rt.executions.length;
  const view = rt.scriptRun('setFormulaKeySharing', [true], { user: OWNER }) as { formulaKeyShared: boolean; isOwner: boolean };
  expect(view).toMatchObject({ formulaKeyShared: true, isOwner: true });
  // Sharing made the cells compute again (issue 32 item 7); a recalculation then asks nothing more.
  rt.recalculate();
  expect(columnValues(wb, 'B', 2, 7)).toEqual(['', ...column.map((u) => s.asinsByUpc.get(u)![0])]);
  expect(formulaRuns(rt, from).requests).toBe(1);
  // The owner's key went out (the share), and it never reached a cell, a log or document properties.
  expect((await env.proxy.seen()).every((x) => x.authorization === 'Bearer ' + env.svc.apiKey)).toBe(true);
  expect(JSON.stringify(rt.properties.document!.toObject()) + rt.logs.join('\n') + JSON.stringify(wb.values(SHEET))).not.toContain(
    env.svc.apiKey,
  );

  rt.scriptRun('setFormulaKeySharing', [false], { user: OWNER });
  rt.recalculate();
  expect(columnValues(wb, 'B', 2, 7)).toEqual(['', ...column.map(() => NO_KEY_MESSAGE)]);
}, 30_000);

test('turning formulas on makes the cells that said "Formulas are off" compute at once, with no recalculation asked for (issue 32 item 7)', () => {
  const s = sampleIndex();
  const column = s.singleUpcs.slice(510, 514);
  const { wb, rt } = world({ share: false });
  fillColumn(wb, 'A', 2, column);
  wb.type(SHEET, 'B2', '=ASIN_FROM_UPC(A2:A5)');
  wb.type(SHEET, 'C2', '=asin_from_upc(A2)');
  wb.type(SHEET, 'C4', '=ASIN_FROM_UPC(A4)');
  expect(columnValues(wb, 'B', 2, 5)).toEqual(column.map(() => NO_KEY_MESSAGE));
  expect([wb.cell(SHEET, 'C2').value, wb.cell(SHEET, 'C4').value]).toEqual([NO_KEY_MESSAGE, NO_KEY_MESSAGE]);
  rt.scriptRun('setFormulaKeySharing', [true], { user: OWNER });
  expect(columnValues(wb, 'B', 2, 5)).toEqual(column.map((u) => s.asinsByUpc.get(u)![0]));
  expect([wb.cell(SHEET, 'C2').value, wb.cell(SHEET, 'C4').value]).toEqual([column[0], column[2]].map((u) => s.asinsByUpc.get(u)![0]));
  // The formulas are the seller's own, unchanged.
  expect(wb.cell(SHEET, 'C2').formula).toBe('=asin_from_upc(A2)');
  expect(wb.cell(SHEET, 'B2').formula).toBe('=ASIN_FROM_UPC(A2:A5)');
});

test('a new key saved in Settings replaces the shared one; a refused shared key says the owner updates it', async () => {
  const s = sampleIndex();
  const { wb, rt } = world();
  fillColumn(wb, 'A', 2, [s.singleUpcs[600]]);
  saveKey(rt, env.proxy.url, 'not-a-valid-key-123456');
  wb.type(SHEET, 'B2', '=ASIN_FROM_UPC(A2)');
  expect(wb.cell(SHEET, 'B2').value).toMatch(/^The API key shared for formulas in this spreadsheet was refused\. The owner updates it/);
  saveKey(rt, env.proxy.url, env.svc.apiKey);
  rt.recalculate();
  expect(wb.cell(SHEET, 'B2').value).toBe(s.asinsByUpc.get(s.singleUpcs[600])![0]);
}, 30_000);

test('the other functions in the built add-on: ASIN_FROM_EAN, ASIN_FROM_ISBN (ISBN-13, ISBN-10, hyphens), EAN/ISBN/GTIN/JAN_FROM_ASIN', () => {
  const us = readCatalogRecords(SAMPLE_CATALOG_PATH).filter((r) => r.marketplace_id === 1);
  // Every 12-14 digit code of a listing, as the 14-digit key the service matches on: only codes on exactly one listing are used.
  const owners = new Map<string, Set<string>>();
  for (const r of us) {
    for (const k of ['upc', 'ean', 'gtin', 'jan', 'isbn'] as const) {
      for (const c of r.identifiers[k] ?? [])
        if (/^\d{12,14}$/.test(c)) owners.set(c.padStart(14, '0'), (owners.get(c.padStart(14, '0')) ?? new Set()).add(r.asin));
    }
  }
  const alone = (code: string) => owners.get(code.padStart(14, '0'))?.size === 1;
  const book = us.find((r) => (r.identifiers.isbn ?? []).length === 2 && r.identifiers.isbn!.every((i) => i.length !== 13 || alone(i)))!;
  // (The sample's non-book EANs are all "0" + a UPC: typed as a number, the EAN loses its zero.)
  const eanOnly = us.find(
    (r) =>
      (r.identifiers.ean ?? []).length === 1 &&
      !(r.identifiers.isbn ?? []).length &&
      /^\d{13}$/.test(r.identifiers.ean![0]) &&
      alone(r.identifiers.ean![0]),
  )!;
  const janRec = us.find((r) => (r.identifiers.jan ?? []).length > 0)!;
  expect([!!book, !!eanOnly, !!janRec]).toEqual([true, true, true]);
  const isbn13 = book.identifiers.isbn!.find((i) => i.length === 13)!;
  const isbn10 = book.identifiers.isbn!.find((i) => i.length === 10)!;
  const ean = eanOnly.identifiers.ean![0];

  const { wb } = world();
  fillColumn(wb, 'A', 2, [isbn13, isbn10, isbn13.slice(0, 3) + '-' + isbn13.slice(3, 4) + '-' + isbn13.slice(4), '9780000000000']);
  wb.type(SHEET, 'B2', '=ASIN_FROM_ISBN(A2:A5)');
  expect(columnValues(wb, 'B', 2, 5)).toEqual([book.asin, book.asin, book.asin, 'invalid ISBN: bad check digit']);

  fillColumn(wb, 'C', 2, [ean, Number(ean)]);
  wb.type(SHEET, 'D2', '=ASIN_FROM_EAN(C2:C3)');
  expect(columnValues(wb, 'D', 2, 3)).toEqual([eanOnly.asin, eanOnly.asin]);

  fillColumn(wb, 'E', 2, [book.asin, eanOnly.asin, janRec.asin]);
  wb.type(SHEET, 'F2', '=ISBN_FROM_ASIN(E2:E4, "US", "all")');
  expect(columnValues(wb, 'F', 2, 4)).toEqual([
    book.identifiers.isbn!.join(', '),
    NOT_FOUND,
    (janRec.identifiers.isbn ?? []).join(', ') || NOT_FOUND,
  ]);
  wb.type(SHEET, 'G2', '=EAN_FROM_ASIN(E2:E3)');
  expect(columnValues(wb, 'G', 2, 3)).toEqual([book.identifiers.ean![0], eanOnly.identifiers.ean![0]]);
  wb.type(SHEET, 'H2', '=GTIN_FROM_ASIN(E3)');
  expect(wb.cell(SHEET, 'H2').value).toBe((eanOnly.identifiers.gtin ?? [eanOnly.identifiers.ean![0].padStart(14, '0')])[0]);
  wb.type(SHEET, 'I2', '=JAN_FROM_ASIN(E4)');
  expect(wb.cell(SHEET, 'I2').value).toBe(janRec.identifiers.jan![0]);
  // Codes stay text with every digit.
  expect(typeof wb.cell(SHEET, 'G2').value).toBe('string');
}, 30_000);
