/**
 * A document saved as .xlsx and opened again keeps what Google keeps for a document from one opening
 * to the next (emulator/gas/document-state.ts): its id, document properties, the add-on's use in it,
 * the users' triggers bound to it, and (the runtime's stand-in for Google's per-user store) the users'
 * properties, never a credential. Google: "Document properties ... shared by all users of the
 * document" and user properties "per user per script" (developers.google.com/apps-script/guides/properties);
 * installable triggers belong to the user who made them, with the document as their source
 * (developers.google.com/apps-script/guides/triggers/installable).
 */
import JSZip from 'jszip';
import { Workbook } from '../../emulator/gas/spreadsheet';
import { STATE_PART } from '../../emulator/gas/spreadsheet/xlsx';
import { evalIn, fixtureInUse, fixtureRuntime, fixtureWithScopes } from './helpers';
import { connect, runtime } from '../addon/scanflow-helpers';
import { startImportService, startSheetScan, waitFinished } from '../addon/import-helpers';
import { tabKey } from '../../src/store/keys';

const KEY = 'sk_live_5f0c2a9d8e7b41c6a3f2';
const HOUR = 3600_000;

/** The workbook after a save and a load, as the next opening of the document gets it. */
async function reopened(wb: Workbook): Promise<Workbook> {
  return Workbook.fromXlsx(await wb.toXlsx());
}

describe('a saved .xlsx keeps the document state', () => {
  test('a user who granted only some scopes has still granted only those after a reopening (the stand-in for Google keeping consent per user)', async () => {
    const scopes = ['spreadsheets.currentonly', 'script.send_mail'];
    const status = 'return String(ScriptApp.getAuthorizationInfo(ScriptApp.AuthMode.FULL).getAuthorizationStatus())';
    const rt = fixtureWithScopes(scopes, {
      workbook: new Workbook({ id: 'doc-grants', owner: 'owner@example.com' }),
      grants: { 'owner@example.com': ['https://www.googleapis.com/auth/spreadsheets.currentonly'] },
    });
    expect(evalIn(rt, status)).toBe('REQUIRED');
    await rt.stop();
    const rt2 = fixtureWithScopes(scopes, { workbook: await reopened(rt.workbook) });
    expect(evalIn(rt2, status)).toBe('REQUIRED');
    await rt2.stop();
  });

  test('the spreadsheet id is the same after a save and a load', async () => {
    const wb = new Workbook({ id: 'doc-kept' });
    expect((await reopened(wb)).id).toBe('doc-kept');
    // A file without the part (one Excel wrote) is a new document with a new id.
    const plain = await Workbook.fromXlsx(await new Workbook().toXlsx());
    expect(plain.id).toMatch(/^local-/);
  });

  test('each sheet keeps its id (records name tabs by id), and a sheet added after the load gets a new one', async () => {
    const wb = new Workbook({ id: 'doc-ids' });
    wb.addSheet('Results');
    wb.addSheet('Scan tags', 0);
    const before = wb.sheets.map((s) => [s.name, s.id]);
    const again = await reopened(wb);
    expect(again.sheets.map((s) => [s.name, s.id])).toEqual(before);
    const added = again.addSheet('Later');
    expect(before.map(([, id]) => id)).not.toContain(added.id);
  });

  test('document properties and the add-on in use: back in a new runtime on the loaded file', async () => {
    // The add-on's own records, made as a seller makes them (issue 32: no key written by hand): the
    // BUILT add-on opened from its menu, a scan sent and imported against the local service.
    const service = await startImportService();
    const wb = new Workbook({ id: 'doc-a' });
    const rt = runtime(wb);
    try {
      rt.open();
      rt.run('menuSettings');
      connect(rt, service.url, service.apiKey);
      const id = startSheetScan(rt, wb, 'Prices', 3, 'Kept');
      await waitFinished(service, id);
      expect(rt.scriptRun('importScan', [id, null])).toMatchObject({ done: true, sheetName: 'Kept' });
      rt.properties.document!.set('other', 'x');
      const before = rt.properties.document!.toObject();
      // The premise: the import's tab record is among them.
      expect(Object.keys(before)).toEqual(expect.arrayContaining([tabKey(id), 'other']));
      await rt.stop();
      const rt2 = runtime(await reopened(wb));
      expect(rt2.properties.document!.toObject()).toEqual(before);
      // The add-on was used here: its custom functions are known and onOpen runs in LIMITED.
      expect(rt2.addOnActive).toBe(true);
      await rt2.stop();
    } finally {
      await rt.stop();
      await service.stop();
    }
  });

  test('a fresh document is not in use after a save (nothing remembered that did not happen)', async () => {
    const rt = fixtureRuntime();
    await rt.stop();
    const rt2 = fixtureRuntime({ workbook: await reopened(rt.workbook) });
    expect(rt2.addOnActive).toBe(false);
    expect(rt2.triggers.records).toEqual([]);
    await rt2.stop();
  });

  test('the user’s hourly trigger bound to the document fires in the new runtime; a trigger of another document is not kept', async () => {
    const rt = fixtureInUse({ workbook: new Workbook({ id: 'doc-b' }) });
    evalIn(rt, "ScriptApp.newTrigger('tick').timeBased().everyHours(1).create()");
    // A trigger the same user made from another document (a spreadsheet trigger naming it by id).
    evalIn(rt, "ScriptApp.newTrigger('tick').forSpreadsheet('another-doc').onOpen().create()");
    const uid = rt.triggers.records.find((t) => t.sourceId === 'doc-b')!.uid;
    const now = rt.state.clock.now();
    await rt.stop();
    const rt2 = fixtureRuntime({ workbook: await reopened(rt.workbook), startTime: now });
    expect(rt2.triggers.records.map((t) => [t.uid, t.handler, t.sourceId, t.everyMs])).toEqual([[uid, 'tick', 'doc-b', HOUR]]);
    expect(evalIn(rt2, 'return ScriptApp.getProjectTriggers().map(function (t) { return t.getHandlerFunction(); })')).toEqual(['tick']);
    rt2.advance(HOUR);
    expect(rt2.runDueTriggers()).toEqual([{ uid, handler: 'tick', user: 'owner@example.com', ok: true }]);
    await rt2.stop();
  });

  test('user properties travel as the per-user stand-in, by user; the API key never goes into the file', async () => {
    const rt = fixtureInUse({ workbook: new Workbook({ id: 'doc-c' }) });
    const settings = JSON.stringify({ v: 1, apiKey: KEY, serviceUrl: 'https://scan.example', marketplace: 'US' });
    evalIn(
      rt,
      'var p = PropertiesService.getUserProperties(); p.setProperty("settings", args.s); p.setProperty("memory", "[1,2]"); p.setProperty("raw", "key=" + args.k);',
      {
        s: settings,
        k: KEY,
      },
    );
    evalIn(rt, 'PropertiesService.getUserProperties().setProperty("mine", "b")', null, { user: 'editor@example.com' });
    const bytes = await rt.workbook.toXlsx();
    await rt.stop();
    // Not in the raw bytes, nor in any part of the package once inflated.
    expect(bytes.includes(Buffer.from(KEY))).toBe(false);
    const zip = await JSZip.loadAsync(bytes);
    const parts = Object.values(zip.files).filter((f) => !f.dir);
    expect(parts.length).toBeGreaterThan(5);
    for (const f of parts) expect(await f.async('string')).not.toContain(KEY);
    expect(zip.file(STATE_PART)).not.toBeNull();
    const rt2 = fixtureRuntime({ workbook: await Workbook.fromXlsx(bytes) });
    expect(rt2.properties.user('owner@example.com').toObject()).toEqual({
      settings: JSON.stringify({ v: 1, apiKey: '', serviceUrl: 'https://scan.example', marketplace: 'US' }),
      memory: '[1,2]',
    });
    expect(rt2.properties.user('editor@example.com').toObject()).toEqual({ mine: 'b' });
    await rt2.stop();
  });

  test('a file opened, edited and saved with no runtime on it (a seller editing it elsewhere) keeps its state', async () => {
    const rt = fixtureInUse({ workbook: new Workbook({ id: 'doc-e' }) });
    evalIn(
      rt,
      "ScriptApp.newTrigger('tick').timeBased().everyHours(1).create(); PropertiesService.getDocumentProperties().setProperty('a', '1')",
    );
    await rt.stop();
    const edited = await reopened(rt.workbook);
    edited.type('Sheet1', 'A1', 'edited');
    const rt2 = fixtureRuntime({ workbook: await reopened(edited) });
    expect(rt2.workbook.id).toBe('doc-e');
    expect(rt2.properties.document!.toObject()).toEqual({ a: '1' });
    expect(rt2.triggers.records.map((t) => t.handler)).toEqual(['tick']);
    // (chosen) The file's state is taken once: a second runtime on the same workbook does not add its triggers again.
    await rt2.stop();
    const rt3 = fixtureRuntime({ workbook: rt2.workbook });
    expect(rt3.triggers.records).toEqual([]);
    await rt3.stop();
  });

  test('no sheet carries the state: the seller sees the same tabs', async () => {
    const rt = fixtureInUse({ workbook: new Workbook({ id: 'doc-d' }) });
    evalIn(rt, "PropertiesService.getDocumentProperties().setProperty('a', '1')");
    await rt.stop();
    expect((await reopened(rt.workbook)).sheetNames()).toEqual(['Sheet1']);
  });
});
