/**
 * The document property store (500 KB for everything, Google's quotas page) must not fill up with
 * the rows skipped before each upload: 200 scans of one price list in one document, each started and
 * imported through the built add-on, each with the largest skipped-rows record (~8.7 KB).
 */
import type { SpawnedService } from '../../emulator/service/spawn';
import { Workbook } from '../../emulator/gas/spreadsheet';
import type { Runtime } from '../../emulator/gas';
import { connect, runtime, scanRequest } from './scanflow-helpers';
import { startImportService, upc, waitFinished } from './import-helpers';
import { notSentKey, notSentKeyIds } from '../../src/store/keys';
import { overviewTabName } from '../../src/domain/result-tabs/overview';

jest.setTimeout(600_000);

const STORE_MAX = 500 * 1024;
const SKIPPED = 150;

/** Two rows the catalog knows, then SKIPPED rows whose cost is unusable (skipped before the upload, long reasons). */
function priceList(): Workbook {
  const wb = new Workbook({ name: 'Supplier', empty: true });
  wb.addSheet('Prices');
  const rows: unknown[][] = [['UPC', 'Cost']];
  rows.push(["'" + upc(20000), 4.5], ["'" + upc(20001), 5]);
  for (let i = 0; i < SKIPPED; i++) rows.push(["'" + upc(700000 + i), 'ask the supplier for a price, then retype it here ' + i]);
  rows.forEach((row, r) => row.forEach((v, c) => wb.type('Prices', wb.a1(r + 1, c + 1), v)));
  return wb;
}

/** The user deletes tabs (Sheets' own tab menu). */
function removeTabs(wb: Workbook, names: string[]): void {
  for (const n of names) {
    const i = wb.sheets.findIndex((s) => s.name === n);
    if (i >= 0) wb.sheets.splice(i, 1);
  }
}

/** The scans with a skipped-rows record in the document properties (read with src/store's own key reader). */
function notSentKeys(rt: Runtime): number[] {
  return notSentKeyIds(Object.keys(rt.properties.document!.toObject()));
}

/**
 * Imports a started scan to the end, once the service says it finished (the local service runs it in
 * its worker thread: importing before that only hears "still running", a whole execution each time).
 */
async function importAll(rt: Runtime, scanId: number): Promise<any> {
  await waitFinished({ url: service.url, apiKey: service.apiKeys[0] }, scanId);
  for (let i = 0; i < 200; i++) {
    const r = rt.scriptRun('importScan', [scanId, null]) as any;
    if (r.done) return r;
  }
  throw new Error('import did not finish');
}

let service: SpawnedService;

describe('skipped-rows records in the document properties (Apps Script quotas: 500 KB per property store)', () => {
  beforeAll(async () => {
    service = await startImportService();
  });
  afterAll(async () => {
    await service?.stop();
  });

  test('200 scans started and imported in one document: the store stays far from 500 KB, every import keeps its skipped rows, checkpoints never fail', async () => {
    const wb = priceList();
    const rt = runtime(wb);
    try {
      connect(rt, service.url, service.apiKeys[0]);
      const setup = rt.scriptRun('getScanSetup') as any;
      let maxBytes = 0;
      let lastErrorsTab = '';
      const opsPerScan: number[] = [];
      let opsBefore = 0;
      for (let i = 0; i < 200; i++) {
        const req = { ...scanRequest(setup, { marketplace: 'US', name: 'Scan ' + i }), headerRow: setup.headerRow };
        opsBefore = rt.quotaUsage().propertiesReadWrite.used;
        const started = rt.scriptRun('startScan', [req]) as any;
        expect(started.preview.skipped.length + started.preview.notListed.skipped).toBe(SKIPPED);
        if (i === 0) expect(rt.properties.document!.get(notSentKey(started.progress.scanId))!.length).toBeGreaterThan(7500);
        maxBytes = Math.max(maxBytes, rt.properties.document!.bytes());
        const done = await importAll(rt, started.progress.scanId);
        expect(done.message).toContain(`${SKIPPED} rows skipped before sending`);
        lastErrorsTab = done.errorsSheetName;
        // The seller deletes the tabs of the scans they have looked at, the overview too (200 scans'
        // tabs would pass Google's 10-million-cell limit); the scans' tab records stay in the store.
        if (i < 199) removeTabs(wb, [done.sheetName, done.errorsSheetName, overviewTabName(done.sheetName)]);
        maxBytes = Math.max(maxBytes, rt.properties.document!.bytes());
        if (i === 0 || i === 199) opsPerScan.push(rt.quotaUsage().propertiesReadWrite.used - opsBefore);
      }
      // Reported figure: property reads and writes of the 1st and the 200th scan (start + import). All
      // 200 in one day stay within Google's 50,000 a day (quotas page): the room check once read one
      // tab record per scan ever imported, which used that quota up before scan 200.
      console.log(`property reads and writes of one scan started and imported: 1st ${opsPerScan[0]}, 200th ${opsPerScan[1]}`);
      const bytes = rt.properties.document!.bytes();
      // Reported figure: what 200 scans leave behind (tab records and the like) and the peak.
      console.log(`document properties after 200 scans: ${bytes} bytes (peak ${maxBytes}) of ${STORE_MAX}`);
      expect(maxBytes).toBeLessThan(STORE_MAX / 5);
      expect(notSentKeys(rt)).toEqual([]);
      // The last scan's errors tab holds its skipped rows, one per sheet row, with the reason.
      const reasons = wb
        .values(lastErrorsTab)
        .slice(1)
        .map((r: unknown[]) => String(r[3]))
        .filter((t) => t.startsWith('Not sent (skipped before the upload)'));
      expect(reasons.length).toBeGreaterThan(50);
    } finally {
      await rt.stop();
    }
  });

  test('a re-import after the record was deleted keeps the skipped rows: they come back from the errors tab', async () => {
    const wb = priceList();
    const rt = runtime(wb);
    try {
      connect(rt, service.url, service.apiKeys[0]);
      const setup = rt.scriptRun('getScanSetup') as any;
      const started = rt.scriptRun('startScan', [
        { ...scanRequest(setup, { marketplace: 'US', name: 'Again' }), headerRow: setup.headerRow },
      ]) as any;
      const id = started.progress.scanId;
      const first = await importAll(rt, id);
      const before = wb.values(first.errorsSheetName);
      expect(notSentKeys(rt)).toEqual([]);
      const again = await importAll(rt, id);
      expect(again.errorsSheetName).toBe(first.errorsSheetName);
      expect(again.message).toContain(`${SKIPPED} rows skipped before sending`);
      expect(wb.values(again.errorsSheetName)).toEqual(before);
      expect(notSentKeys(rt)).toEqual([]);
    } finally {
      await rt.stop();
    }
  });

  test("a full store (other bookkeeping near 500 KB): the import checkpoint still saves, the other scans' skipped-rows records give way to their counts", async () => {
    const wb = priceList();
    const rt = runtime(wb);
    try {
      connect(rt, service.url, service.apiKeys[0]);
      const setup = rt.scriptRun('getScanSetup') as any;
      const ids: number[] = [];
      for (let i = 0; i < 5; i++) {
        const s = rt.scriptRun('startScan', [
          { ...scanRequest(setup, { marketplace: 'US', name: 'Full ' + i }), headerRow: setup.headerRow },
        ]) as any;
        ids.push(s.progress.scanId);
      }
      // Other records of the document fill it to 200 bytes short of 500 KB.
      const doc = rt.properties.document!;
      for (let k = 0; ; k++) {
        const room = STORE_MAX - 200 - doc.bytes() - ('filler.' + k).length;
        if (room <= 0) break;
        doc.set('filler.' + k, 'x'.repeat(Math.min(8000, room)));
      }
      const done = await importAll(rt, ids[4]);
      expect(done.message).toContain(`${SKIPPED} rows skipped before sending`);
      expect(doc.bytes()).toBeLessThanOrEqual(STORE_MAX);
      for (const id of ids.slice(0, 4)) expect(JSON.parse(doc.get(notSentKey(id))!)).toEqual({ n: SKIPPED, r: [] });
    } finally {
      await rt.stop();
    }
  });

  test('scans started and never imported: records stay bounded (newest 10 with rows, older ones their count only)', async () => {
    const wb = priceList();
    const rt = runtime(wb);
    try {
      connect(rt, service.url, service.apiKeys[0]);
      const setup = rt.scriptRun('getScanSetup') as any;
      const ids: number[] = [];
      for (let i = 0; i < 60; i++) {
        const s = rt.scriptRun('startScan', [
          { ...scanRequest(setup, { marketplace: 'US', name: 'Later ' + i }), headerRow: setup.headerRow },
        ]) as any;
        ids.push(s.progress.scanId);
      }
      const bytes = rt.properties.document!.bytes();
      console.log(`document properties after 60 scans never imported: ${bytes} bytes of ${STORE_MAX}`);
      expect(bytes).toBeLessThan(120 * 1024);
      expect(notSentKeys(rt)).toHaveLength(60);
      const full = ids.filter((id) => JSON.parse(rt.properties.document!.get(notSentKey(id))!).r.length > 0);
      expect(full).toEqual(ids.slice(-10));
      // An old scan imported now still says how many rows were skipped (the count was kept).
      const old = await importAll(rt, ids[0]);
      expect(old.message).toContain(`${SKIPPED} rows skipped before sending`);
    } finally {
      await rt.stop();
    }
  });
});
