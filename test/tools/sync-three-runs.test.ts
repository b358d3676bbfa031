/**
 * Issue 20: `npm run local -- sync` three times, each run on the previous run's saved workbook, with
 * edits between the runs on both sides (in the workbook and on the service, one service kept running
 * for all runs). Unchanged lists stay unchanged, each edit is sent or written exactly once, nothing is
 * lost, and a preview after the third run has nothing to do.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Workbook } from '../../emulator/gas/spreadsheet';
import { spawnService, type SpawnedService } from '../../emulator/service/spawn';
import { runLocal } from './run-local';

const dir = mkdtempSync(join(tmpdir(), 'local-sync-3-'));
let svc: SpawnedService;
beforeAll(async () => {
  svc = await spawnService();
}, 60_000);
afterAll(async () => {
  await svc?.stop();
});

async function api(method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(svc.url + path, {
    method,
    headers: { authorization: `Bearer ${svc.apiKey}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

const TABLES: Record<string, [string, unknown[][]]> = {
  SCAN_TAGS: [
    'Scan tags',
    [
      ['Marketplace', 'ASIN', 'Tags'],
      ['US', 'B000000001', 'a, b'],
    ],
  ],
  SCAN_NOTES: [
    'Scan notes',
    [
      ['Marketplace', 'ASIN', 'Note', 'Note ID'],
      ['US', 'B000000002', 'call supplier', ''],
    ],
  ],
  SCAN_BRAND_BLOCKLIST: [
    'Scan brand blocklist',
    [
      ['Marketplace', 'Brand'],
      ['US', 'Acme'],
    ],
  ],
  SCAN_ASIN_BLOCKLIST: [
    'Scan ASIN blocklist',
    [
      ['Marketplace', 'ASIN'],
      ['US', 'B000000003'],
    ],
  ],
  SCAN_LISTING_MATCHES: [
    'Scan listing matches',
    [
      ['Marketplace', 'Identifier', 'ASIN', 'Match'],
      ['US', "'036000291452", 'B000000006', true],
    ],
  ],
  SCAN_MULTIPACK: [
    'Scan multipack',
    [
      ['Marketplace', 'ASIN', 'Units'],
      ['US', 'B000000007', 6],
    ],
  ],
};

/** Opens a saved workbook, lets `edit` type into it as a user would, saves it as `out`. */
async function editWorkbook(input: string, out: string, edit: (wb: Workbook) => void): Promise<void> {
  const wb = await Workbook.fromXlsx(input);
  edit(wb);
  await wb.saveXlsx(out);
}

async function sync(input: string, out: string, ...flags: string[]): Promise<string[]> {
  const r = await runLocal(['sync', input, '--out', out, ...flags], { SCAN_SERVICE_URL: svc.url, SCAN_SERVICE_API_KEY: svc.apiKey });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.stdout.split('\n');
}
const line = (lines: string[], range: string) => lines.find((l) => l.startsWith(range + ' ')) ?? `(no line for ${range})`;
const UNCHANGED = 'unchanged — sent: 0 added, 0 changed, 0 deleted; written: 0 added, 0 changed, 0 deleted';

test('three syncs, each on the previous output, with edits on both sides in between: each edit crosses once, nothing is lost', async () => {
  const wb = new Workbook({ name: 'Lists' });
  for (const [name, [tab, rows]] of Object.entries(TABLES)) {
    wb.addSheet(tab);
    rows.forEach((r, i) => r.forEach((v, j) => v !== '' && wb.type(tab, wb.a1(i + 1, j + 1), v)));
    wb.namedRanges.set(name, { name, area: { sheet: wb.requireSheet(tab), r1: 1, c1: 1, r2: rows.length, c2: rows[0].length } });
  }
  const input = join(dir, 'lists.xlsx');
  await wb.saveXlsx(input);

  // run 1: every list merges its one row
  const run1 = await sync(input, join(dir, 'lists.1.xlsx'));
  for (const name of Object.keys(TABLES))
    expect(line(run1, name)).toMatch(/: synced — first sync \(merge\); sent: 1 added, 0 changed, 0 deleted; written: 0 added/);

  // between 1 and 2: the user changes a brand and a multipack row; the service gets an ASIN of its own
  await editWorkbook(join(dir, 'lists.1.xlsx'), join(dir, 'lists.1e.xlsx'), (w) => {
    w.type('Scan brand blocklist', 'B2', 'Bosch');
    w.type('Scan multipack', 'C2', 12);
  });
  await api('POST', '/api/v3/asin-blocklist', { marketplace_id: 'US', asins: ['B00000000Z'] });
  const run2 = await sync(join(dir, 'lists.1e.xlsx'), join(dir, 'lists.2.xlsx'));
  for (const name of ['SCAN_TAGS', 'SCAN_NOTES', 'SCAN_LISTING_MATCHES']) expect(line(run2, name)).toContain(UNCHANGED);
  expect(line(run2, 'SCAN_BRAND_BLOCKLIST')).toContain(
    'synced — sent: 1 added, 0 changed, 1 deleted; written: 0 added, 0 changed, 0 deleted',
  );
  expect(line(run2, 'SCAN_MULTIPACK')).toContain('synced — sent: 0 added, 1 changed, 0 deleted; written: 0 added, 0 changed, 0 deleted');
  expect(line(run2, 'SCAN_ASIN_BLOCKLIST')).toContain(
    'synced — sent: 0 added, 0 changed, 0 deleted; written: 1 added, 0 changed, 0 deleted',
  );

  // between 2 and 3: the user adds a tag row; the service drops the first ASIN of the blocklist
  await editWorkbook(join(dir, 'lists.2.xlsx'), join(dir, 'lists.2e.xlsx'), (w) => {
    w.type('Scan tags', 'A3', 'US');
    w.type('Scan tags', 'B3', 'B000000009');
    w.type('Scan tags', 'C3', 'new');
  });
  await api('DELETE', '/api/v3/asin-blocklist', { marketplace_id: 'US', asins: ['B000000003'] });
  const run3 = await sync(join(dir, 'lists.2e.xlsx'), join(dir, 'lists.3.xlsx'));
  for (const name of ['SCAN_NOTES', 'SCAN_BRAND_BLOCKLIST', 'SCAN_LISTING_MATCHES', 'SCAN_MULTIPACK'])
    expect(line(run3, name)).toContain(UNCHANGED);
  expect(line(run3, 'SCAN_TAGS')).toContain('synced — sent: 1 added, 0 changed, 0 deleted; written: 0 added, 0 changed, 0 deleted');
  expect(line(run3, 'SCAN_ASIN_BLOCKLIST')).toContain(
    'synced — sent: 0 added, 0 changed, 0 deleted; written: 0 added, 0 changed, 1 deleted',
  );

  // after: a preview of the third output has nothing to do, and the workbook holds what the service holds
  const preview = await sync(join(dir, 'lists.3.xlsx'), join(dir, 'preview.xlsx'), '--preview');
  for (const name of Object.keys(TABLES))
    expect(line(preview, name)).toContain('to send: 0 added, 0 changed, 0 deleted; to write: 0 added, 0 changed, 0 deleted');
  const last = await Workbook.fromXlsx(join(dir, 'lists.3.xlsx'));
  const rows = (tab: string) => last.values(tab).slice(1);
  expect(rows('Scan tags')).toEqual([
    ['US', 'B000000001', 'a, b'],
    ['US', 'B000000009', 'new'],
  ]);
  expect(rows('Scan brand blocklist')).toEqual([['US', 'Bosch']]);
  expect(rows('Scan ASIN blocklist')).toEqual([['US', 'B00000000Z']]);
  expect(rows('Scan listing matches')).toEqual([['US', '036000291452', 'B000000006', true]]);
  expect(rows('Scan multipack')).toEqual([['US', 'B000000007', 12]]);
  expect(rows('Scan notes')[0].slice(0, 3)).toEqual(['US', 'B000000002', 'call supplier']);
  const brands = await api('GET', '/api/v3/brand-blocklist?per_page=100');
  expect(brands.data.map((b: any) => b.name)).toEqual(['Bosch']);
  const asins = await api('GET', '/api/v3/asin-blocklist?per_page=100');
  expect(asins.data.map((a: any) => a.asin)).toEqual(['B00000000Z']);
  const multipack = await api('GET', '/api/v3/multipack-corrections?per_page=100');
  expect(multipack.data.map((m: any) => [m.asin, m.units ?? m.quantity])).toEqual([['B000000007', 12]]);
  // every base tab is in the file under a name of at most 31 characters, once
  const bases = last.sheetNames().filter((n) => n.startsWith('_scan_base_'));
  expect(bases).toHaveLength(6);
  expect(bases.every((n) => n.length <= 31)).toBe(true);
}, 240_000);
