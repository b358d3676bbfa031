/**
 * `npm run local -- sync <workbook.xlsx> [--out] [--preview] [--confirm-deletions]`, as a child
 * process on the BUILT add-on against a local service it starts: one line per list, the workbook
 * saved with its named ranges, deletions only when confirmed.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Workbook } from '../../emulator/gas/spreadsheet';
import { runLocal } from './run-local';

/** The command starts a local service of its own (whatever the test's environment says). */
const NO_SERVICE_URL = { SCAN_SERVICE_URL: undefined };
const dir = mkdtempSync(join(tmpdir(), 'local-sync-'));

test('sync: one line per list, the workbook saved with its named ranges; preview changes nothing', async () => {
  const wb = new Workbook({ name: 'Lists' });
  wb.addSheet('Blocked');
  const rows = [
    ['Brand', 'Marketplace', 'Why'],
    ['Acme', 'US', 'fakes'],
    ['Bosch', 'DE', ''],
    ['x'.repeat(300), 'US', 'typo'],
  ];
  rows.forEach((r, i) => r.forEach((v, j) => v !== '' && wb.type('Blocked', wb.a1(i + 1, j + 1), v)));
  wb.namedRanges.set('SCAN_BRAND_BLOCKLIST', {
    name: 'SCAN_BRAND_BLOCKLIST',
    area: { sheet: wb.requireSheet('Blocked'), r1: 1, c1: 1, r2: 2, c2: 3 },
  });
  const input = join(dir, 'lists.xlsx');
  await wb.saveXlsx(input);

  const preview = await runLocal(['sync', input, '--preview', '--out', join(dir, 'preview.xlsx')], NO_SERVICE_URL);
  expect(preview.stderr).toBe('');
  expect(preview.stdout).toContain(
    'SCAN_BRAND_BLOCKLIST (Blocked): preview — first sync (merge); to send: 2 added, 0 changed, 0 deleted; to write: 0 added, 0 changed, 0 deleted; 1 row refused (refused: row 4: brand is over 255 characters (it has 300))',
  );
  expect(preview.stdout).toContain('SCAN_TAGS: not-set-up — No named range SCAN_TAGS');

  const out = join(dir, 'synced.xlsx');
  const sync = await runLocal(['sync', input, '--out', out], NO_SERVICE_URL);
  expect(sync.code).toBe(0);
  expect(sync.stdout).toContain('SCAN_BRAND_BLOCKLIST (Blocked): synced — first sync (merge); sent: 2 added');
  expect(sync.stdout).toMatch(/^sync: Lists synced\. \(\d+ requests, 0 answered 429\)$/m);
  const saved = await Workbook.fromXlsx(out);
  const range = saved.namedRanges.get('SCAN_BRAND_BLOCKLIST')!;
  expect([range.area.sheet.name, range.area.r1, range.area.c1, range.area.r2, range.area.c2]).toEqual(['Blocked', 1, 1, 4, 3]);
  expect(
    saved
      .values('Blocked')
      .slice(0, 4)
      .map((r) => r.slice(0, 3)),
  ).toEqual(rows);
}, 120_000);
