/**
 * The scans list and the import after the document's records are lost (issue 32 item 5): the BUILT
 * add-on in the local runtime, the workbook saved as .xlsx and opened as a NEW spreadsheet (as an
 * .xlsx uploaded to Drive becomes one: the local runtime's part that keeps a document's state is left
 * out, so no add-on record comes with it). The result tab is recognised by
 * the note the import writes on its header: the card shows it, and importing again replaces it.
 */
import { spawnService, type SpawnedService } from '../../emulator/service/spawn';
import JSZip from 'jszip';
import { Workbook } from '../../emulator/gas/spreadsheet';
import { connect, listWorkbook, runtime, scanRequest } from './scanflow-helpers';
import { waitFinished } from './import-helpers';

jest.setTimeout(60_000);

const OWNER = 'owner@example.com';
let svc: SpawnedService;

beforeAll(async () => {
  svc = await spawnService({ SCAN_SERVICE_SPEED: '600000' });
});
afterAll(async () => {
  await svc?.stop();
});

test('saved as .xlsx and opened again: the scan card shows the tab it has, and importing again makes no second tab', async () => {
  const wb = listWorkbook(20, OWNER);
  const rt = runtime(wb);
  connect(rt, svc.url, svc.apiKey);
  let id: number;
  try {
    const started = rt.scriptRun('startScan', [scanRequest(rt.scriptRun('getScanSetup'), { marketplace: 'US', name: 'Kept' })]) as any;
    id = started.progress.scanId;
    await waitFinished(svc, id);
    const imported = rt.scriptRun('importScan', [id, null]) as any;
    expect(imported).toEqual(expect.objectContaining({ done: true, sheetName: 'Kept', errorsSheetName: 'Kept – errors' }));
  } finally {
    await rt.stop();
  }

  // Only the sheets travel: the file without the runtime's document-state part (emulator/gas/document-state.ts).
  const zip = await JSZip.loadAsync(await wb.toXlsx());
  for (const name of Object.keys(zip.files)) if (name.startsWith('customXml/')) zip.remove(name);
  const again = await Workbook.fromXlsx(await zip.generateAsync({ type: 'nodebuffer' }), { owner: OWNER });
  const rt2 = runtime(again);
  try {
    // The premise: this runtime opened the file with none of the add-on's document records.
    expect(Object.keys(rt2.properties.document?.toObject() ?? {})).toEqual([]);
    connect(rt2, svc.url, svc.apiKey);
    const tabs = again.sheetNames();
    expect(tabs).toEqual(expect.arrayContaining(['List', 'Kept', 'Kept – errors']));

    const page = rt2.scriptRun('listScans', [1]) as any;
    expect(page.scans.find((s: any) => s.scanId === id)).toEqual(expect.objectContaining({ resultSheet: 'Kept' }));
    expect(rt2.scriptRun('openResultTab', [id])).toEqual({ sheetName: 'Kept' });

    const reimported = rt2.scriptRun('importScan', [id, null]) as any;
    expect(reimported).toEqual(expect.objectContaining({ done: true, sheetName: 'Kept', errorsSheetName: 'Kept – errors' }));
    expect(again.sheetNames().sort()).toEqual(tabs.slice().sort());
  } finally {
    await rt2.stop();
  }
});
