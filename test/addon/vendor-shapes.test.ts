/**
 * The BUILT add-on in the local runtime against the local Scan Service answering in the shapes of
 * the vendor's public TypeScript client (issue 8: `Success` / `InProgress` status words, records
 * without lines_done, mapping or completed_at, `{data, total, pagination}` lists, product rows with
 * members the add-on does not know, null members), through vendor-shapes-proxy.cjs: a new scan,
 * its progress, the Scans list, an import by hand, an import by the hourly trigger, and a delete
 * behave as against the local service's own shapes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnService, type SpawnedService } from '../../emulator/service/spawn';
import { Workbook } from '../../emulator/gas/spreadsheet';
import { connect, listWorkbook, ROOT, runtime, SAMPLE, scanRequest, startChildProxy, thrown } from './scanflow-helpers';
import { serviceRows, waitFinished } from './import-helpers';

jest.setTimeout(60_000);

const OWNER = 'owner@example.com';
let svc: SpawnedService;
let proxy: { url: string; stop: () => void };

beforeAll(async () => {
  // 6,000 lines a minute: a 20-line scan is seen running for a moment, then finishes.
  svc = await spawnService({ SCAN_SERVICE_SPEED: '6000' });
  proxy = await startChildProxy('vendor-shapes-proxy.cjs', svc.url);
});
afterAll(async () => {
  await proxy?.stop();
  await svc?.stop();
});

function request(rt: ReturnType<typeof runtime>, name: string) {
  return scanRequest(rt.scriptRun('getScanSetup'), { marketplace: 'US', name });
}

const asinsOf = (rows: any[]) => rows.map((p) => p.asin);

test("new scan, progress, list, import by hand and by the hourly trigger, delete: all read the vendor's shapes", async () => {
  const wb = listWorkbook(20, OWNER);
  const rt = runtime(wb);
  connect(rt, proxy.url, svc.apiKey);
  try {
    const req = request(rt, 'By hand');
    const first = rt.scriptRun('startScan', [req]) as any;
    const second = rt.scriptRun('startScan', [{ ...req, options: { marketplace: 'US', name: 'By trigger' } }]) as any;
    const id = first.progress.scanId;
    const id2 = second.progress.scanId;
    // `InProgress` is the vendor's word for a scan not finished yet.
    expect(first.progress).toEqual(expect.objectContaining({ name: 'By hand', status: 'running', lines: 20, marketplace: 'US' }));
    expect(first.progress.done).toBeLessThanOrEqual(20);

    const done1 = await waitFinished(svc, id);
    await waitFinished(svc, id2);
    expect(done1.status).toBe('success');
    // What the add-on gets through the proxy: the vendor's record.
    const vendor = (await (
      await fetch(`${proxy.url}/api/v3/scans/${id}`, { headers: { authorization: 'Bearer ' + svc.apiKey } })
    ).json()) as Record<string, unknown>;
    expect(vendor.status).toBe('Success');
    expect(Object.keys(vendor)).not.toEqual(expect.arrayContaining(['lines_done']));
    // `Success`, and a record without lines_done: every line counts as done.
    const p = rt.scriptRun('getScanProgress', [id]) as any;
    expect(p).toEqual(
      expect.objectContaining({
        scanId: id,
        status: 'success',
        lines: 20,
        done: 20,
        products: done1.products,
        errors: done1.errors,
        secondsLeft: 0,
      }),
    );

    // The list in the `{data, total, pagination}` shape: both finished scans, nothing more to page.
    const listed = (await (
      await fetch(`${proxy.url}/api/v3/scans?page=1&per_page=25`, { headers: { authorization: 'Bearer ' + svc.apiKey } })
    ).json()) as Record<string, unknown>;
    expect(Object.keys(listed).sort()).toEqual(['data', 'pagination', 'total']);
    const page = rt.scriptRun('listScans', [1]) as any;
    expect(page.hasMore).toBe(false);
    expect(
      page.scans
        .filter((s: any) => s.scanId === id || s.scanId === id2)
        .map((s: any) => [s.scanId, s.status])
        .sort(),
    ).toEqual(
      [
        [id, 'success'],
        [id2, 'success'],
      ].sort(),
    );

    // Import by hand: a finished scan whose status reads `Success` is imported, not "still running".
    const imported = rt.scriptRun('importScan', [id, null]) as any;
    expect(imported).toEqual(expect.objectContaining({ scanId: id, done: true, sheetName: 'By hand', totalRows: done1.products }));
    expect(
      wb
        .values('By hand')
        .slice(1)
        .map((r) => r[0]),
    ).toEqual(asinsOf(await serviceRows(svc, id)));

    // The hourly trigger imports the other one, says so, and removes itself (nothing left).
    rt.advance(3600_000);
    expect(rt.runDueTriggers()).toMatchObject([{ handler: 'importFinishedScans', ok: true }]);
    expect(
      wb
        .values('By trigger')
        .slice(1)
        .map((r) => r[0]),
    ).toEqual(asinsOf(await serviceRows(svc, id2)));
    expect(rt.uiEvents.filter((e) => e.kind === 'toast').map((e: any) => e.title)).toEqual(['Scan "By trigger" is done']);
    expect(rt.triggers.records.filter((t) => t.handler === 'importFinishedScans')).toEqual([]);

    // Delete: gone at the service, the document forgets it; its tab stays.
    expect(rt.scriptRun('deleteScan', [id])).toEqual({ deleted: true });
    expect(thrown(() => rt.scriptRun('getScanProgress', [id]))).toMatch(/does not know this \(scan \d+\)/);
    expect(wb.sheetNames()).toContain('By hand');
  } finally {
    await rt.stop();
  }
});

/** A tab's header row and rows, by header. */
function columnsOf(wb: Workbook, tab: string): Record<string, unknown[]> {
  const v = wb.values(tab);
  return Object.fromEntries(v[0].map((h, i) => [String(h), v.slice(1).map((r) => r[i])]));
}

async function importSample(
  url: string,
  name: string,
): Promise<{ wb: Workbook; rt: ReturnType<typeof runtime>; id: number; imported: any }> {
  const wb = await Workbook.fromXlsx(SAMPLE);
  const rt = runtime(wb);
  connect(rt, url, svc.apiKey);
  const started = rt.scriptRun('startScan', [scanRequest(rt.scriptRun('getScanSetup'), { marketplace: 'US', name })]) as any;
  const id = started.progress.scanId;
  await waitFinished(svc, id);
  const imported = rt.scriptRun('importScan', [id, null]) as any;
  expect(imported.done).toBe(true);
  return { wb, rt, id, imported };
}

test("a scan record without mapping (the vendor's shape): the sample imports with every column under its own header, result and errors tabs, as from the service's own shape", async () => {
  const direct = await importSample(svc.url, 'Sample');
  const vendor = await importSample(proxy.url, 'Sample');
  try {
    // The premise: the record the add-on reads has no mapping.
    const record = (await (
      await fetch(`${proxy.url}/api/v3/scans/${vendor.id}`, { headers: { authorization: 'Bearer ' + svc.apiKey } })
    ).json()) as Record<string, unknown>;
    expect(Object.keys(record)).not.toContain('mapping');
    const want = columnsOf(direct.wb, direct.imported.sheetName);
    // The supplier's own columns, as the sample has them (samples/supplier-price-list.csv).
    expect(Object.keys(want)).toEqual(expect.arrayContaining(['SKU', 'MAP', 'Stock', 'Description', 'Case Pack', 'Sheet row']));
    expect(want.SKU[0]).toBe('SKU-10001');
    expect(want['Sheet row'][0]).toBe(2);
    expect(columnsOf(vendor.wb, vendor.imported.sheetName)).toEqual(want);
    // Errors tab: the sheet row of the service's error rows and the uploaded cells under their input headers.
    const errors = direct.wb.values(direct.imported.errorsSheetName);
    expect(errors[0]).toEqual(
      expect.arrayContaining(['Input: Identifier', 'Input: Cost', 'Input: SKU', 'Input: Case Pack', 'Input: Sheet row']),
    );
    expect(vendor.wb.values(vendor.imported.errorsSheetName)).toEqual(errors);
  } finally {
    await direct.rt.stop();
    await vendor.rt.stop();
  }
});

test('a scan this spreadsheet did not send, answered without a mapping: the columns only the mapping places stay blank with a note, never shifted', async () => {
  const sent = await importSample(svc.url, 'Elsewhere');
  const wb = new Workbook({ name: 'Other', owner: OWNER });
  const rt = runtime(wb);
  connect(rt, proxy.url, svc.apiKey);
  try {
    const imported = rt.scriptRun('importScan', [sent.id, null]) as any;
    expect(imported.done).toBe(true);
    const want = columnsOf(sent.wb, sent.imported.sheetName);
    const got = columnsOf(wb, imported.sheetName);
    // Named by the service itself: SKU, MAP, stock, cost, identifier are right.
    for (const h of ['ASIN', 'Identifier', 'Cost', 'SKU', 'MAP', 'Stock']) expect(got[h]).toEqual(want[h]);
    // Placed only by the mapping: blank under their headers, each header saying why.
    const header = wb.values(imported.sheetName)[0].map(String);
    for (const h of ['Description', 'Case Pack', 'Sheet row', 'Pack qty']) {
      expect(got[h]?.every((v) => v === '')).toBe(true);
      expect(wb.cell(imported.sheetName, wb.a1(1, header.indexOf(h) + 1)).note).toMatch(/^Left blank: .*no mapping/);
    }
  } finally {
    await rt.stop();
    await sent.rt.stop();
  }
});

test("the vendor's shape of images: per marketplace, the local service's https links with their size", async () => {
  // Five lines of the sample price list (UPC in column 1, cost in column 3), uploaded straight to the proxy.
  const lines = readFileSync(join(ROOT, 'samples', 'supplier-price-list.csv'), 'utf8')
    .split('\n')
    .slice(0, 6)
    .join('\n');
  const form = new FormData();
  form.append('file', new Blob([lines], { type: 'text/csv' }), 'five.csv');
  form.append(
    'attributes',
    JSON.stringify({ mapping: { id: 1, cost: 3 }, options: { marketplace_id: 'US', name: 'Images', header: true } }),
  );
  const res = await fetch(`${proxy.url}/api/v3/scans`, { method: 'POST', headers: { authorization: 'Bearer ' + svc.apiKey }, body: form });
  const scan = (await res.json()) as { id: number };
  await waitFinished(svc, scan.id);
  const direct = await serviceRows(svc, scan.id);
  const vendor = await serviceRows({ url: proxy.url, apiKey: svc.apiKey }, scan.id);
  expect(direct.length).toBeGreaterThan(0);
  for (const [i, p] of vendor.entries()) {
    const links = direct[i].images.map((im: { url: string }) => im.url);
    expect(links[0]).toMatch(/^https:\/\/images\.scan-service\.invalid\/I\/[A-Z0-9]{10}-0\.png$/);
    expect(p.images).toEqual([
      {
        marketplace_id: '1',
        image: links.map((link: string, n: number) => ({ link, height: 75, width: 75, variant: n === 0 ? 'MAIN' : `PT0${n}` })),
      },
    ]);
  }
});
