/**
 * Scan history server functions end to end (BUILT add-on, local runtime, local service in a child
 * process): listScans (pages, this document's running scans, imported tabs), deleteScan,
 * downloadScan to Drive and into a tab, exportScan (link, integration not set up).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SpawnedService } from '../../emulator/service/spawn';
import type { Workbook } from '../../emulator/gas/spreadsheet';
import type { Runtime } from '../../emulator/gas';
import { startFaultProxy, thrown, type FaultProxy } from './scanflow-helpers';
import { decisionKey, tabKey } from '../../src/store/keys';
import { api, importSession, startImportService, startSheetScan, supplierRows, uploadScan, waitFinished } from './import-helpers';

jest.setTimeout(60_000);

describe('scan history', () => {
  let service: SpawnedService;
  let key: { url: string; apiKey: string };
  const finished: number[] = [];
  let main: number;
  beforeAll(async () => {
    // 600 lines a minute: small scans finish in a moment, a 300-line scan stays running for the test.
    service = await startImportService({ SCAN_SERVICE_SPEED: '600' });
    key = { url: service.url, apiKey: service.apiKeys[1] };
    for (let i = 0; i < 26; i++) finished.push(await uploadScan(key, supplierRows(1, 0), 'Tiny ' + i));
    main = await uploadScan(key, supplierRows(12, 3), 'Main =list');
    finished.push(main);
    for (const id of finished) await waitFinished(key, id);
  });
  afterAll(async () => {
    await service?.stop();
  });

  function session(): { rt: Runtime; wb: Workbook } {
    return importSession(key);
  }

  test("lists finished scans newest first, 25 a page, with this document's running scans and imported tabs on page 1", async () => {
    const { rt, wb } = session();
    try {
      // Started here as a seller does (getScanSetup, startScan): this document's running scan.
      const running = startSheetScan(rt, wb, 'Sheet1', 300, 'Still going');
      rt.scriptRun('importScan', [main, null]);
      const p1 = rt.scriptRun('listScans', [1]) as any;
      expect(p1.page).toBe(1);
      expect(p1.hasMore).toBe(true);
      expect(p1.scans[0]).toMatchObject({ scanId: running, name: 'Still going', lines: 300, resultSheet: null });
      expect(['queued', 'running']).toContain(p1.scans[0].status);
      const listed = p1.scans.slice(1);
      expect(listed.map((s: any) => s.scanId)).toEqual([...finished].reverse().slice(0, 25));
      expect(listed[0]).toMatchObject({
        scanId: main,
        name: 'Main =list',
        status: 'success',
        lines: 15,
        done: 15,
        products: 12,
        errors: 3,
        marketplace: 'US',
        resultSheet: 'Main =list',
        secondsLeft: 0,
      });
      expect(listed[0].completedAt).toMatch(/Z$/);
      const p2 = rt.scriptRun('listScans', [2]) as any;
      expect(p2).toMatchObject({ page: 2, hasMore: false });
      expect(p2.scans.map((s: any) => s.scanId)).toEqual([finished[1], finished[0]]);
      await api(key, 'GET', '/api/v3/scans/' + running + '/cancel');
    } finally {
      await rt.stop();
    }
  });

  test('delete removes the scan at the service and from this document; the tab the user has stays', async () => {
    const { rt, wb } = session();
    try {
      // Started here as a seller does: startScan keeps the scan's decision options (issue 24).
      const id = startSheetScan(rt, wb, 'Sheet1', 2, 'To delete');
      await waitFinished(key, id);
      expect(rt.properties.document!.get(decisionKey(id))).not.toBeNull();
      rt.scriptRun('importScan', [id, null]);
      expect(rt.scriptRun('deleteScan', [id])).toEqual({ deleted: true });
      expect(rt.properties.document!.get(decisionKey(id))).toBeNull();
      expect((await api(key, 'GET', '/api/v3/scans/' + id)).message).toMatch(/not found|does not exist|no scan/i);
      expect(rt.properties.document!.get(tabKey(id))).toBeNull();
      expect(wb.sheetNames()).toContain('To delete');
      expect(rt.scriptRun('deleteScan', [id])).toEqual({ deleted: false });
    } finally {
      await rt.stop();
    }
  });

  test('open: the imported tab comes to the front, also after a rename; a scan without a tab here says to import it', async () => {
    const { rt, wb } = session();
    try {
      rt.scriptRun('importScan', [main, null]);
      wb.activeSheet = wb.requireSheet('Sheet1');
      expect(rt.scriptRun('openResultTab', [main])).toEqual({ sheetName: 'Main =list' });
      expect(wb.activeSheet!.name).toBe('Main =list');
      wb.requireSheet('Main =list').name = 'Picks';
      wb.activeSheet = wb.requireSheet('Sheet1');
      expect(rt.scriptRun('openResultTab', [main])).toEqual({ sheetName: 'Picks' });
      expect(wb.activeSheet!.name).toBe('Picks');
      expect(thrown(() => rt.scriptRun('openResultTab', [finished[0]]))).toMatch(
        /^This scan has no result tab in this spreadsheet .*Import it/,
      );
    } finally {
      await rt.stop();
    }
  });

  test('open after a filtered import: the filtered tab when the sidebar asks for it, else the full tab (issue 27)', async () => {
    const { rt, wb } = session();
    try {
      rt.scriptRun('importScan', [main, null]);
      const r = rt.scriptRun('importScan', [main, { filters: [{ field: 'profit', operator: '>=', value: 0 }] }]) as { sheetName: string };
      expect(r.sheetName).toBe('Main =list (filtered)');
      wb.activeSheet = wb.requireSheet('Sheet1');
      expect(rt.scriptRun('openResultTab', [main, true])).toEqual({ sheetName: 'Main =list (filtered)' });
      expect(wb.activeSheet!.name).toBe('Main =list (filtered)');
      expect(rt.scriptRun('openResultTab', [main, false])).toEqual({ sheetName: 'Main =list' });
      expect(rt.scriptRun('openResultTab', [main])).toEqual({ sheetName: 'Main =list' });
    } finally {
      await rt.stop();
    }
  });

  test('downloads CSV, XLSX and JSON to Drive files the user can open, byte for byte what the service sent', async () => {
    const { rt } = session();
    try {
      for (const format of ['csv', 'xlsx', 'json']) {
        const r = rt.scriptRun('downloadScan', [main, format, 'drive']) as any;
        expect(r.fileName).toBe(`Main =list (scan ${main}).${format}`);
        expect(r.sheetName).toBeNull();
        const file = [...rt.drive.files.values()].find((f) => r.url === `https://drive.google.com/file/d/${f.id}/view?usp=drivesdk`)!;
        expect(file.name).toBe(r.fileName);
        const res = await fetch(key.url + `/api/v3/scans/${main}/download?type=${format}`, {
          method: 'POST',
          headers: { authorization: 'Bearer ' + key.apiKey },
        });
        expect(file.data.equals(Buffer.from(await res.arrayBuffer()))).toBe(true);
      }
    } finally {
      await rt.stop();
    }
  });

  test('Save to Drive needs only drive.file: the Drive API through the advanced Drive service v3 (DriveApp.createFile needs the restricted drive scope: developers.google.com/apps-script/reference/drive/drive-app#createFile)', async () => {
    const dist = join(__dirname, '..', '..', 'dist');
    const manifest = JSON.parse(readFileSync(join(dist, 'appsscript.json'), 'utf8'));
    expect(manifest.dependencies.enabledAdvancedServices).toEqual([{ userSymbol: 'Drive', serviceId: 'drive', version: 'v3' }]);
    expect(manifest.oauthScopes).toContain('https://www.googleapis.com/auth/drive.file');
    expect(manifest.oauthScopes).not.toContain('https://www.googleapis.com/auth/drive');
    // Nothing in the add-on may call DriveApp: under drive.file Google refuses every DriveApp call that creates a file.
    expect(readFileSync(join(dist, 'Code.js'), 'utf8')).not.toMatch(/\bDriveApp\b/);
    const { rt } = session();
    try {
      const r = rt.scriptRun('downloadScan', [main, 'csv', 'drive']) as any;
      const [file] = [...rt.drive.files.values()];
      // The link is the Drive API's webViewLink for the file it made, typed as CSV.
      expect(r.url).toBe(`https://drive.google.com/file/d/${file.id}/view?usp=drivesdk`);
      expect(file).toMatchObject({ name: r.fileName, mimeType: 'text/csv', owner: 'owner@example.com' });
    } finally {
      await rt.stop();
    }
  });

  test('downloads CSV and JSON into a new tab, typed and guarded; XLSX only to Drive', async () => {
    const { rt, wb } = session();
    try {
      const csv = rt.scriptRun('downloadScan', [main, 'csv', 'tab']) as any;
      expect(csv).toMatchObject({ sheetName: 'Main =list (CSV)', url: null });
      const json = rt.scriptRun('downloadScan', [main, 'json', 'tab']) as any;
      expect(json.sheetName).toBe('Main =list (JSON)');
      const products = await api(key, 'POST', `/api/v3/scans/${main}/download?type=json`, {});
      for (const name of ['Main =list (CSV)', 'Main =list (JSON)']) {
        const values = wb.values(name);
        const header = values[0] as string[];
        expect(values).toHaveLength(products.length + 1);
        const col = (h: string) => header.indexOf(h);
        products.forEach((p: any, i: number) => {
          const row = values[i + 1];
          expect(row[col('asin')]).toBe(p.asin);
          expect(row[col('market_title')]).toBe(p.market_title);
          expect(row[col('buybox_price')]).toBe(p.buybox_price);
          expect(row[col('financials.profit')]).toBe(p.financials.profit ?? '');
          expect(row[col('inputs.identifier')]).toBe(p.inputs.identifier);
        });
        const sh = wb.requireSheet(name);
        for (let r = 1; r <= sh.lastRow(); r++) for (let c = 1; c <= sh.lastColumn(); c++) expect(sh.cell(r, c)?.f).toBeUndefined();
        // The notes column holds "=SUM(A1:A2)" from the supplier: text, not a formula.
        expect(values.flat()).toContain('=SUM(A1:A2)');
      }
      expect(thrown(() => rt.scriptRun('downloadScan', [main, 'xlsx', 'tab']))).toBe(
        'An XLSX file can only be saved to Drive. Choose CSV or JSON to put the results into a tab.',
      );
      expect(thrown(() => rt.scriptRun('downloadScan', [main, 'pdf', 'drive']))).toBe('Choose CSV, XLSX or JSON.');
    } finally {
      await rt.stop();
    }
  });

  test('export shows the link the service answers with; a link that serves the exported workbook', async () => {
    const { rt } = session();
    try {
      const r = rt.scriptRun('exportScan', [main]) as any;
      expect(r.message).toBe('12 products were exported. Open the link to see them.');
      expect(r.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/exports\/[A-Za-z0-9_-]+$/);
      const res = await fetch(r.url);
      expect(res.status).toBe(200);
      expect(
        Buffer.from(await res.arrayBuffer())
          .subarray(0, 2)
          .toString(),
      ).toBe('PK');
    } finally {
      await rt.stop();
    }
  });

  describe('through a proxy that answers for the service', () => {
    let proxy: FaultProxy;
    beforeAll(async () => {
      proxy = await startFaultProxy(key.url);
    });
    afterAll(() => proxy?.stop());

    test('export when the integration is not set up, and of a running scan: plain messages, no link', async () => {
      const { rt } = importSession({ url: proxy.url, apiKey: key.apiKey });
      try {
        await proxy.faults([
          {
            method: 'POST',
            path: '/export$',
            status: 409,
            times: 1,
            body: JSON.stringify({
              message: 'The spreadsheet-service integration is not set up for this account; set it up in the integrations area first.',
            }),
          },
        ]);
        expect(rt.scriptRun('exportScan', [main])).toEqual({
          url: null,
          message:
            'Export is not set up for your Scan Service account. Set up the spreadsheet integration in the Scan Service (Integrations), then export again.',
        });
        const running = await uploadScan(key, supplierRows(300, 0), 'Busy');
        expect(rt.scriptRun('exportScan', [running])).toEqual({
          url: null,
          message: 'This scan has not finished yet; export it when it has.',
        });
        expect(thrown(() => rt.scriptRun('downloadScan', [running, 'csv', 'drive']))).toBe(
          'The scan "Busy" has not finished yet; download it when it has.',
        );
        await api(key, 'GET', '/api/v3/scans/' + running + '/cancel');
      } finally {
        await rt.stop();
      }
    });
  });
});
