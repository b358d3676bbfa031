/**
 * The add-on's real flows under the manifest-strict runtime (issue 19): the BUILT add-on with the
 * scopes of dist/appsscript.json enforced (emulator/gas/scopes.ts), several users in one document
 * with their own settings, emails blank where Google gives none, a file in a shared drive (no
 * owner), and the hourly trigger with and without an active document. The local Scan Service runs
 * in a child process with two accounts (two API keys).
 */
import type { SpawnedService } from '../../emulator/service/spawn';
import type { Runtime, RuntimeOptions } from '../../emulator/gas';
import { Workbook } from '../../emulator/gas/spreadsheet';
import { NO_KEY_MESSAGE, SHARED_DRIVE_NO_KEY_MESSAGE } from '../../src/custom-functions/messages';
import { runningTag, runtime, scanRequest, thrown } from './scanflow-helpers';
import { RUNNING_KEY, TRIGGER_NO_DOCUMENT_KEY, USER_ID_KEY } from '../../src/store/keys';
import { asinOf, startImportService, upc, waitFinished } from './import-helpers';

jest.setTimeout(90_000);

const OWNER = 'owner@example.com';
const EDITOR_A = 'ann@gmail.example';
const EDITOR_B = 'bob@gmail.example';
const SHEET = 'Supplier';

let service: SpawnedService;
const opened: Runtime[] = [];
beforeAll(async () => {
  service = await startImportService();
}, 60_000);
afterAll(async () => {
  for (const rt of opened) await rt.stop();
  await service?.stop();
});

/** A supplier sheet (UPC, Cost) the three users share, with products of the test catalog. */
function supplierWorkbook(opts: { sharedDrive?: boolean } = {}): Workbook {
  const wb = new Workbook({ owner: OWNER, name: 'Shared supplier list', empty: true, ...opts });
  wb.addSheet(SHEET, undefined, 200, 6);
  wb.type(SHEET, 'A1', 'UPC');
  wb.type(SHEET, 'B1', 'Cost');
  for (let i = 0; i < 8; i++) {
    // Catalog product 100 + i has the UPC upc(20100 + i) (import-helpers.ts).
    wb.type(SHEET, `A${i + 2}`, "'" + upc(20100 + i));
    wb.type(SHEET, `B${i + 2}`, 3 + i);
  }
  return wb;
}

function world(wb: Workbook, opts: RuntimeOptions = {}): Runtime {
  const rt = runtime(wb, opts);
  opened.push(rt);
  return rt;
}

/** The add-on used in the document as a user does: it opens, Settings is clicked in its menu. */
function useAddOn(rt: Runtime, user: string): void {
  rt.open({ user });
  rt.run('menuSettings', [], { user });
}

function saveSettings(rt: Runtime, user: string, apiKey: string, extra: Record<string, unknown> = {}): any {
  return rt.scriptRun('saveSettings', [{ apiKey, serviceUrl: service.url, ...extra }], { user });
}

/** New scan from the sidebar as `user`, named `name`. */
function startScan(rt: Runtime, user: string, name: string): number {
  const setup = rt.scriptRun('getScanSetup', [], { user }) as any;
  const started = rt.scriptRun('startScan', [{ ...scanRequest(setup, { marketplace: 'US', name }), headerRow: setup.headerRow }], {
    user,
  }) as any;
  return started.progress.scanId as number;
}

const running = (rt: Runtime) => JSON.parse(rt.properties.document!.get(RUNNING_KEY) ?? '{}') as Record<string, { u: string }>;
const asins = (wb: Workbook, tab: string) =>
  wb
    .values(tab)
    .slice(1)
    .map((r) => r[0])
    .sort();
const keyA = () => ({ url: service.url, apiKey: service.apiKeys[0] });
const keyB = () => ({ url: service.url, apiKey: service.apiKeys[1] });

describe('formulas: whose key (Session reference: no email in custom functions; Spreadsheet reference: getOwner)', () => {
  test("the owner saves the key with 'Formulas in this spreadsheet run on my key' in one step; an editor without a key of their own gets results on the owner's key", () => {
    const wb = supplierWorkbook();
    const rt = world(wb);
    useAddOn(rt, OWNER);
    const view = saveSettings(rt, OWNER, service.apiKeys[0], { formulasOnMyKey: true });
    expect(view).toMatchObject({ hasApiKey: true, isOwner: true, formulaKeyShared: true });
    expect(view.formulaNote).toMatch(/Every recalculation, also by an editor, .* counts against your quota/);
    // The editor has no key: only the owner's share can make this work.
    rt.activeUser = EDITOR_A;
    wb.type(SHEET, 'D2', '=ASIN_FROM_UPC(A2:A3)');
    expect([wb.cell(SHEET, 'D2').value, wb.cell(SHEET, 'D3').value]).toEqual([asinOf(100), asinOf(101)]);
    expect(rt.executions.filter((e) => e.kind === 'custom-function').map((e) => e.user)).toEqual([EDITOR_A]);
    // The editor cannot take the choice over: refused before anything of theirs is saved.
    expect(thrown(() => saveSettings(rt, EDITOR_A, service.apiKeys[1], { formulasOnMyKey: true }))).toMatch(
      /^Only the owner of this spreadsheet \(owner@example.com\) can let its formulas use their API key/,
    );
    expect(rt.properties.user(EDITOR_A).toObject()).toEqual({});
  });

  test('Session reference ("cross-domain consumer" emails withheld): the owner Google does not name still turns formulas on when saving the key, told the condition', () => {
    const wb = supplierWorkbook();
    const rt = world(wb, { withheldEmails: [OWNER] });
    useAddOn(rt, OWNER);
    const before = rt.scriptRun('getSettings', [], { user: OWNER }) as any;
    expect(before).toMatchObject({ isOwner: true, formulaKeyShared: false });
    const view = saveSettings(rt, OWNER, service.apiKeys[0], { formulasOnMyKey: true });
    expect(view.formulaKeyShared).toBe(true);
    expect(view.formulaNote).toContain('this works only if you own this spreadsheet (owner@example.com)');
    wb.type(SHEET, 'D2', '=ASIN_FROM_UPC(A2)');
    expect(wb.cell(SHEET, 'D2').value).toBe(asinOf(100));
  });

  test('without the choice the cell names it (issue 27 item 4); Spreadsheet reference, getOwner null in a shared drive: not offered, and the cell says why', () => {
    const mine = supplierWorkbook();
    const rt = world(mine);
    useAddOn(rt, OWNER);
    saveSettings(rt, OWNER, service.apiKeys[0]);
    mine.type(SHEET, 'D2', '=ASIN_FROM_UPC(A2)');
    expect(mine.cell(SHEET, 'D2').value).toBe(NO_KEY_MESSAGE);

    const shared = supplierWorkbook({ sharedDrive: true });
    const sd = world(shared);
    useAddOn(sd, OWNER);
    const view = saveSettings(sd, OWNER, service.apiKeys[0]);
    expect(view).toMatchObject({ isOwner: false, formulaKeyShared: false });
    expect(view.formulaNote).toMatch(/^This spreadsheet is in a shared drive, which has no owner/);
    expect(thrown(() => sd.scriptRun('setFormulaKeySharing', [true], { user: OWNER }))).toMatch(/shared drive/);
    expect(thrown(() => saveSettings(sd, OWNER, service.apiKeys[0], { formulasOnMyKey: true }))).toMatch(/shared drive/);
    shared.type(SHEET, 'D2', '=ASIN_FROM_UPC(A2)');
    expect(shared.cell(SHEET, 'D2').value).toBe(SHARED_DRIVE_NO_KEY_MESSAGE);
  });
});

describe('scans in one shared document (Session reference: getTemporaryActiveUserKey, unique per user, no email)', () => {
  test("two editors whose emails Google withholds, in a shared-drive file: each sees and imports only their own scan; polling never drops the other's", async () => {
    const wb = supplierWorkbook({ sharedDrive: true });
    const rt = world(wb, { withheldEmails: [EDITOR_A, EDITOR_B] });
    useAddOn(rt, EDITOR_A);
    saveSettings(rt, EDITOR_A, service.apiKeys[0]);
    saveSettings(rt, EDITOR_B, service.apiKeys[1]);
    const a = startScan(rt, EDITOR_A, 'Ann list');
    const b = startScan(rt, EDITOR_B, 'Bob list');
    // Two tags in the record, one per user (with a blank email they were one and the same).
    const rec = running(rt);
    expect(Object.keys(rec).sort()).toEqual([String(a), String(b)].sort());
    expect(rec[String(a)].u).not.toBe(rec[String(b)].u);
    await waitFinished(keyA(), a);
    await waitFinished(keyB(), b);

    // Bob's sidebar polls: only his scan, with his key; Ann's record stays (a 404 with Bob's key would have dropped it).
    expect((rt.scriptRun('getRunningScans', [], { user: EDITOR_B }) as any[]).map((p) => p.scanId)).toEqual([b]);
    expect(Object.keys(running(rt)).sort()).toEqual([String(a), String(b)].sort());
    expect((rt.scriptRun('getRunningScans', [], { user: EDITOR_A }) as any[]).map((p) => p.scanId)).toEqual([a]);

    // Each one's hourly trigger imports their own scan, into the one document.
    expect(rt.triggers.records.map((t) => t.user).sort()).toEqual([EDITOR_A, EDITOR_B]);
    rt.advance(3600_000);
    expect(rt.runDueTriggers().map((f) => [f.user, f.ok])).toEqual(
      expect.arrayContaining([
        [EDITOR_A, true],
        [EDITOR_B, true],
      ]),
    );
    expect(wb.sheetNames()).toEqual(expect.arrayContaining(['Ann list', 'Bob list']));
    const expected = [100, 101, 102, 103, 104, 105, 106, 107].map(asinOf).sort();
    expect(asins(wb, 'Ann list')).toEqual(expected);
    expect(asins(wb, 'Bob list')).toEqual(expected);
    expect(running(rt)).toEqual({});
  });
});

describe("the user's records across temporary keys (Session reference: getTemporaryActiveUserKey rotates every 30 days; not documented to be the same in a trigger)", () => {
  test("a record tagged the old way is read as the user's and rewritten; after the key rotates, and with a trigger key unlike the sidebar's, no record is lost", async () => {
    const wb = supplierWorkbook();
    const rt = world(wb, { triggerUserKey: 'other' });
    useAddOn(rt, OWNER);
    saveSettings(rt, OWNER, service.apiKeys[0]);
    const old = startScan(rt, OWNER, 'Tagged the old way');
    // What the version before left: the record tagged by the temporary key, and no id of the user.
    const rec = running(rt);
    rec[String(old)].u = runningTag(OWNER);
    rt.properties.document!.set(RUNNING_KEY, JSON.stringify(rec));
    rt.properties.user(OWNER).map.delete(USER_ID_KEY);
    await waitFinished(keyA(), old);
    expect((rt.scriptRun('getRunningScans', [], { user: OWNER }) as any[]).map((p) => p.scanId)).toEqual([old]);
    // Rewritten with the user's own tag, not the temporary key's.
    const tag = running(rt)[String(old)].u;
    expect(tag).not.toBe(runningTag(OWNER));
    expect(tag).toMatch(/^[0-9a-f]{12}$/);

    // The temporary key rotates (every 30 days; here at once, so no finished record is old enough to be
    // forgotten): both scans stay the user's, in the sidebar and in the trigger.
    rt.rotateUserKeys();
    const fresh = startScan(rt, OWNER, 'After the rotation');
    await waitFinished(keyA(), fresh);
    rt.rotateUserKeys();
    expect((rt.scriptRun('getRunningScans', [], { user: OWNER }) as any[]).map((p) => p.scanId).sort()).toEqual([old, fresh].sort());
    rt.advance(3600_000);
    expect(rt.runDueTriggers()).toMatchObject([{ handler: 'importFinishedScans', user: OWNER, ok: true }]);
    expect(wb.sheetNames()).toEqual(expect.arrayContaining(['Tagged the old way', 'After the rotation']));
    expect(running(rt)).toEqual({});
  });
});

describe('the hourly trigger with and without an active document (apps-script-platform.md: not promised to an add-on trigger)', () => {
  test('without a document it loses nothing and says so in the log; the next sidebar open imports and says why; with a document it imports itself', async () => {
    const wb = supplierWorkbook();
    const rt = world(wb, { triggerDocument: 'none' });
    useAddOn(rt, OWNER);
    saveSettings(rt, OWNER, service.apiKeys[0]);
    rt.scriptRun('setAutoSync', [true], { user: OWNER });
    const first = startScan(rt, OWNER, 'Night one');
    await waitFinished(keyA(), first);

    rt.advance(3600_000);
    const fired = rt.runDueTriggers();
    expect(fired).toMatchObject([{ handler: 'importFinishedScans', user: OWNER, ok: true }]);
    // Nothing imported, nothing lost: the record and the trigger stay; the log and a user record say why.
    expect(wb.sheetNames()).toEqual([SHEET]);
    expect(Object.keys(running(rt))).toEqual([String(first)]);
    expect(rt.triggers.records).toHaveLength(1);
    expect(rt.logs.join('\n')).toContain('Google ran the trigger without its spreadsheet; nothing was imported or synced');
    // The sidebar opens: the finished scan says why it waited, and is imported (as the Scans card does).
    const listed = rt.scriptRun('getRunningScans', [], { user: OWNER }) as any[];
    expect(listed).toMatchObject([{ scanId: first, status: 'success', importNow: true }]);
    expect(listed[0].autoImportStopped).toMatch(
      /^Not imported automatically: the hourly import ran at .* without access to this spreadsheet \(Google did not open it for the trigger\), so it is imported now that the sidebar is open\.$/,
    );
    expect((rt.scriptRun('getListsStatus', [], { user: OWNER }) as any).notice).toMatch(
      /^Automatic sync did not run: the hourly trigger ran at .* without access to this spreadsheet/,
    );
    // What the Scans card does on sight of importNow (test/sidebar/scan-view.test.ts).
    const imported = rt.scriptRun('importScan', [first, null], { user: OWNER }) as any;
    expect(imported).toMatchObject({ done: true, sheetName: 'Night one' });
    expect(asins(wb, 'Night one')).toHaveLength(8);

    // The same document in the other world: the trigger has it, imports by itself, the note goes.
    wb.activeSheet = wb.requireSheet(SHEET); // the user goes back to the price list (the import opened its tab)
    wb.activeRange = null;
    const second = startScan(rt, OWNER, 'Night two');
    await waitFinished(keyA(), second);
    rt.triggerDocument = 'active';
    rt.advance(3600_000);
    expect(rt.runDueTriggers()).toMatchObject([{ handler: 'importFinishedScans', ok: true }]);
    expect(wb.sheetNames()).toContain('Night two');
    expect(running(rt)).toEqual({});
    expect(rt.properties.user(OWNER).get(TRIGGER_NO_DOCUMENT_KEY)).toBeNull();
  });
});
