/**
 * Issue 20: the lists sync's hidden base tabs have names an .xlsx file can hold (31 characters) and
 * stay unique; a base kept under the 33-character name of earlier versions (in Sheets), or under that
 * name cut to 31 characters (an .xlsx download of it), is still found and moved to the new name.
 */
import { createHash } from 'node:crypto';
import { Workbook } from '../../emulator/gas/spreadsheet';
import { connect } from './scanflow-helpers';
import { listsRuntime, startClockedService, type ClockedService } from './lists-helpers';

const KEYS = ['names-key-00-aaaaaaaaaaaaaaaa', 'names-key-01-aaaaaaaaaaaaaaaa', 'names-key-02-aaaaaaaaaaaaaaaa'];
let svc: ClockedService;
beforeAll(async () => {
  svc = await startClockedService(KEYS);
}, 60_000);
afterAll(async () => {
  await svc?.stop();
});
afterEach(() => svc.clock.advance(61_000));

const tagOf = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 12);
const byList = (r: any, id: string) => r.lists.find((l: any) => l.list === id);

test('every base tab of the six lists has a name of at most 31 characters, hidden and unique', async () => {
  const wb = new Workbook({ name: 'Lists' });
  const rt = listsRuntime(wb, svc.clock);
  connect(rt, svc.url, KEYS[0]);
  rt.scriptRun('setUpLists');
  const rows: Array<[string, unknown[]]> = [
    ['Scan tags', ['US', 'B000000001', 'a, b']],
    ['Scan notes', ['US', 'B000000002', 'hello']],
    ['Scan brand blocklist', ['US', 'Acme']],
    ['Scan ASIN blocklist', ['US', 'B000000003']],
    ['Scan listing matches', ['US', '036000291452', 'B000000006', true]],
    ['Scan multipack', ['US', 'B000000007', 6]],
  ];
  for (const [sheet, row] of rows) row.forEach((v, i) => wb.type(sheet, wb.a1(2, i + 1), v));
  const report = rt.scriptRun('syncNow') as any;
  expect(report.lists.map((l: any) => l.state)).toEqual(['synced', 'synced', 'synced', 'synced', 'synced', 'synced']);
  const bases = wb.sheets.filter((s) => s.name.startsWith('_scan_base_'));
  expect(bases.map((s) => s.name).sort()).toEqual(
    ['asins', 'brands', 'matches', 'mpack', 'notes', 'tags'].map((l) => `_scan_base_${l}_${tagOf(KEYS[0])}`).sort(),
  );
  for (const s of bases) {
    expect(s.name.length).toBeLessThanOrEqual(31);
    expect(s.hidden).toBe(true);
  }
  await rt.stop();
});

test.each([
  ['the full 33-character name (kept by Sheets)', (tag: string) => `_scan_base_multipack_${tag}`],
  ['that name cut to 31 characters (an .xlsx download of it)', (tag: string) => `_scan_base_multipack_${tag}`.slice(0, 31)],
])('a multipack base under %s is found (no first sync again) and renamed to the short name', async (_what, oldName) => {
  const key = _what.startsWith('the full') ? KEYS[1] : KEYS[2];
  const tag = tagOf(key);
  const wb = new Workbook({ name: 'Lists' });
  const rt = listsRuntime(wb, svc.clock);
  connect(rt, svc.url, key);
  rt.scriptRun('setUpLists');
  wb.type('Scan multipack', 'A2', 'US');
  wb.type('Scan multipack', 'B2', 'B000000007');
  wb.type('Scan multipack', 'C2', 6);
  expect(byList(rt.scriptRun('syncNow'), 'multipack')).toMatchObject({ firstSync: true, toService: { added: 1 } });
  // the state an earlier version left: its base tab under the old name
  wb.requireSheet(`_scan_base_mpack_${tag}`).name = oldName(tag);
  svc.clock.advance(61_000);
  const again = byList(rt.scriptRun('syncNow'), 'multipack');
  expect(again).toMatchObject({ firstSync: false, state: 'unchanged', toService: { added: 0, changed: 0, deleted: 0 } });
  wb.type('Scan multipack', 'C2', 12);
  svc.clock.advance(61_000);
  expect(byList(rt.scriptRun('syncNow'), 'multipack')).toMatchObject({ firstSync: false, toService: { changed: 1 } });
  expect(wb.sheetNames().filter((n) => n.includes('_multipack_') || n.includes('_mpack_'))).toEqual([`_scan_base_mpack_${tag}`]);
  expect(wb.requireSheet(`_scan_base_mpack_${tag}`).hidden).toBe(true);
  await rt.stop();
});
