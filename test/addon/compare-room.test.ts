/**
 * Compare's room check honours the import's tuning knob (IMPORT_TUNING_KEY): the cell limit it reads
 * is the knob's (lowered here, as for the import's tests, against a local runtime with the same
 * lowered limit), and with `roomCheck: false` Google's own refusal still becomes the plain message.
 * Both scans are read from the service (no result tab here), so the first tab Compare makes is its
 * hidden facts tab.
 */
import type { SpawnedService } from '../../emulator/service/spawn';
import { Workbook } from '../../emulator/gas/spreadsheet';
import { connect, runtime } from './scanflow-helpers';
import { startImportService, supplierRows, uploadScan, waitFinished } from './import-helpers';
import { COMPARE_KEY, IMPORT_TUNING_KEY } from '../../src/store/keys';

jest.setTimeout(60_000);

const LIMIT = 200_000;

describe('compare: the room check under the tuning knob', () => {
  let service: SpawnedService;
  let first: number;
  let later: number;

  beforeAll(async () => {
    service = await startImportService();
    first = await uploadScan(service, supplierRows(10, 0), 'Acme 2026-11-02');
    await waitFinished(service, first);
    later = await uploadScan(service, supplierRows(12, 0), 'Acme 2026-11-09');
    await waitFinished(service, later);
  });
  afterAll(async () => {
    await service?.stop();
  });

  for (const roomCheck of [true, false]) {
    test(`a spreadsheet without room under the knob's cell limit gets the plain message, nothing left behind (roomCheck ${roomCheck})`, async () => {
      const wb = new Workbook({ name: 'Supplier' });
      const rt = runtime(wb, { cellLimit: LIMIT });
      let message = '';
      try {
        connect(rt, service.url, service.apiKey);
        rt.properties.script.set(IMPORT_TUNING_KEY, JSON.stringify({ cellLimit: LIMIT, roomCheck }));
        // Fill the spreadsheet to 2,000 cells short of the lowered limit.
        const used = wb.sheets.reduce((n, s) => n + s.maxRows * s.maxCols, 0);
        const big = wb.addSheet('Big', undefined, 1, 1);
        big.maxRows = LIMIT - used - 2000;
        try {
          rt.scriptRun('compareScans', [first, later]);
        } catch (e) {
          message = String((e as Error).message);
        }
        expect(message).toMatch(
          /^Reading the two scans needs [\d,]+ cells and this spreadsheet has 2,000 left of the 200,000 Google Sheets holds\. Delete tabs you no longer need/,
        );
        expect(wb.sheetNames()).toEqual(['Sheet1', 'Big']);
        expect(rt.properties.document!.get(COMPARE_KEY)).toBeNull();
      } finally {
        await rt.stop();
      }
    });
  }
});
