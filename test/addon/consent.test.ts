/**
 * Consent a seller gives in part (granular OAuth consent for published Editor add-ons,
 * workspaceupdates.googleblog.com/2025/08/granular-oauth-consent-in-google-apps.html): every feature
 * run under each partial grant, each optional scope withheld in turn (BUILT add-on, local runtime,
 * local service). What needs the withheld scope says which permission (the consent screen's words)
 * with Google's link (ScriptApp.getAuthorizationInfo, developers.google.com/apps-script/reference/script/authorization-info)
 * and writes nothing; everything else works. Then a version that adds a scope: the hourly run records
 * it for that user, never fails, and the sidebar says so.
 */
import type { SpawnedService } from '../../emulator/service/spawn';
import type { Runtime } from '../../emulator/gas';
import { connect, listWorkbook, runtime, thrown } from './scanflow-helpers';
import { spawnService } from '../../emulator/service/spawn';
import { waitFinished } from './import-helpers';

jest.setTimeout(180_000);

const { ADDON_SCOPES } = require('../../tools/build/scopes.cjs') as {
  ADDON_SCOPES: Array<{ scope: string; consent: string; need?: string }>;
};
const OWNER = 'owner@example.com';
const EDITOR = 'editor@example.com';
const HOUR = 3600_000;
const ALL = ADDON_SCOPES.map((s) => s.scope);
const OPTIONAL = ADDON_SCOPES.filter((s) => s.need);
const consentOf = (need: string) => ADDON_SCOPES.find((s) => s.need === need)!.consent;
const GOOGLE_LINK = /^https:\/\/script\.google\.com\//;

let service: SpawnedService;
beforeAll(async () => {
  // The sample catalog, where listWorkbook's UPCs are: the scheduled scans find products (a scan of
  // nothing but not-found lines ends in "error" and has no Changes tab, issue 33).
  service = await spawnService({ SCAN_SERVICE_SPEED: '6000000', SCAN_SERVICE_API_KEYS: 'imp-key-a,imp-key-b' });
});
afterAll(async () => {
  await service?.stop();
});

/** A started and finished scan of the list, by a seller who granted `grant`. */
async function scanned(
  grant: string[],
): Promise<{ rt: Runtime; wb: ReturnType<typeof listWorkbook>; scanId: number; notice: string | null }> {
  const wb = listWorkbook(4, OWNER);
  const rt = runtime(wb, { grants: { [OWNER]: grant } });
  connect(rt, service.url, service.apiKeys[0]);
  const setup: any = rt.scriptRun('getScanSetup', [{ sheetName: 'List' }]);
  const started: any = rt.scriptRun('startScan', [
    {
      roles: setup.columns.map((c: any) => c.role),
      options: { marketplace: 'US', name: 'ACME' },
      sheetName: setup.sheetName,
      rangeA1: setup.rangeA1,
      selection: setup.selection,
      headerRow: setup.headerRow,
      headers: setup.columns.map((c: any) => c.header),
    },
  ]);
  await waitFinished(service, started.progress.scanId);
  return { rt, wb, scanId: started.progress.scanId, notice: started.notice };
}

describe.each(OPTIONAL.map((s) => [s.need!, s.scope]))('a seller who unticked the scope of %s (%s)', (need, withheld) => {
  const grant = ALL.filter((s) => s !== withheld);

  test("the sidebar names the missing permission with Google's link; only that feature is refused, before it writes anything; the rest works", async () => {
    const { rt, wb, scanId, notice } = await scanned(grant);
    try {
      // The banner under the tabs: exactly the feature whose scope is missing.
      const consent: any = rt.scriptRun('getConsent');
      expect(consent.notices.map((m: any) => m.about)).toEqual([need]);
      expect(consent.notices[0].text).toContain(`"${consentOf(need)}"`);
      expect(consent.notices[0].url).toMatch(GOOGLE_LINK);
      expect(consent.notices[0].text).toMatch(/which you did not give the add-on\. Allow it in Google\.$/);

      // The hourly trigger (New scan's notice; Lists' automatic sync).
      const mine = () => rt.triggers.records.filter((t) => t.user === OWNER);
      if (need === 'trigger') {
        expect(notice).toContain(`needs the permission "${consentOf('trigger')}"`);
        expect(notice).toContain('link at the top of the sidebar');
        expect(mine()).toEqual([]);
        const lists: any = rt.scriptRun('setAutoSync', [true]);
        expect(lists.autoSync).toBe(false);
        expect(lists.notice).toBe(notice);
        // By hand it still imports.
        expect((rt.scriptRun('importScan', [scanId, null]) as any).done).toBe(true);
      } else {
        expect(notice).toBeNull();
        expect(mine()).toHaveLength(1);
        rt.advance(HOUR);
        expect(rt.runDueTriggers()).toMatchObject([{ handler: 'importFinishedScans', ok: true }]);
        expect(wb.sheetNames()).toContain('ACME');
      }

      // Save to Drive.
      const tabs = wb.sheetNames();
      if (need === 'drive') {
        expect(thrown(() => rt.scriptRun('downloadScan', [scanId, 'csv', 'drive']))).toBe(
          `Save to Drive needs the permission "${consentOf('drive')}", which you did not give the add-on. Allow it with the link at the top of the sidebar, then try again; nothing was changed.`,
        );
        expect(rt.drive.files.size).toBe(0);
        expect(wb.sheetNames()).toEqual(tabs);
      } else {
        const r: any = rt.scriptRun('downloadScan', [scanId, 'csv', 'drive']);
        expect(r.url).toMatch(/^https:\/\/drive\.google\.com\//);
        expect(rt.drive.files.size).toBe(1);
      }
      // A tab as CSV in Drive (Negotiate and PO tabs' export) needs the same permission.
      if (need === 'drive') {
        expect(thrown(() => rt.scriptRun('exportTabCsv', ['List']))).toMatch(/^Save to Drive needs the permission "/);
        expect(rt.drive.files.size).toBe(0);
      } else {
        expect((rt.scriptRun('exportTabCsv', ['List']) as any).fileName).toBe('List.csv');
        expect(rt.drive.files.size).toBe(2);
      }
      // Into a tab needs no optional scope.
      expect((rt.scriptRun('downloadScan', [scanId, 'csv', 'tab']) as any).sheetName).toBe('ACME (CSV)');

      // Following the link and allowing it: the feature works, the banner is empty.
      rt.grant(OWNER, 'all');
      expect(rt.scriptRun('getConsent')).toEqual({ notices: [] });
    } finally {
      await rt.stop();
    }
  });
});

test('the schedule email without its permission: the run still imports and compares, nothing is sent, the banner names the permission with the link', async () => {
  const mail = ADDON_SCOPES.find((s) => s.need === 'mail')!.scope;
  const { rt, scanId } = await scanned(ALL.filter((s) => s !== mail));
  try {
    rt.advance(HOUR);
    expect(rt.runDueTriggers()).toMatchObject([{ handler: 'importFinishedScans', ok: true }]);
    const id = (rt.scriptRun('getRememberedSuppliers') as any[])[0].id;
    rt.scriptRun('saveSchedule', [id, 'd@6', scanId, true]);
    let schedule: any = null;
    for (let i = 0; i < 30 && !schedule?.summary; i++) {
      rt.advance(HOUR);
      for (const f of rt.runDueTriggers()) expect(f).toMatchObject({ handler: 'importFinishedScans', ok: true });
      schedule = (rt.scriptRun('getSchedules') as any[])[0];
      // The scheduled scan the run sent: wait for the service to finish it before the next hour.
      const running = (rt.scriptRun('getRunningScans') as any[]).map((p) => p.scanId);
      for (const sid of running) await waitFinished(service, sid);
    }
    expect(schedule.summary).toMatch(/ — scan \d+ against \d+/);
    // Which permission, in the words of Google's consent screen, and where to give it.
    expect(schedule.status).toContain(
      'The summary email was not sent: The summary email after a scheduled re-scan needs the permission "' + consentOf('mail') + '"',
    );
    expect(schedule.status).toContain('Allow it with the link at the top of the sidebar');
    expect(rt.outbox).toEqual([]);
    const consent: any = rt.scriptRun('getConsent');
    // The hourly run found it first (recorded for this user), then the feature's own line.
    expect(consent.notices.map((n: any) => n.about)).toEqual(['reauth', 'mail']);
    expect(consent.notices.slice(1)).toEqual([
      {
        about: 'mail',
        text: expect.stringContaining(`"${consentOf('mail')}"`),
        url: expect.stringMatching(GOOGLE_LINK),
      },
    ]);
  } finally {
    await rt.stop();
  }
});

test('a version that adds a scope (editor-triggers, "authorization challenges after updates"): the hourly run records it for that user only, goes on, and the sidebar says so with the link until the user allows it', async () => {
  const { rt, wb } = await scanned(ALL);
  try {
    connect(rt, service.url, service.apiKeys[1], EDITOR);
    // The owner authorised the version before send_mail was added; the editor the new one.
    const mail = ADDON_SCOPES.find((s) => s.need === 'mail')!.scope;
    rt.grant(
      OWNER,
      ALL.filter((s) => s !== mail),
    );
    rt.advance(HOUR);
    expect(rt.runDueTriggers()).toMatchObject([{ handler: 'importFinishedScans', ok: true }]);
    expect(wb.sheetNames()).toContain('ACME');
    const reauth = (rt.scriptRun('getConsent') as any).notices[0];
    expect(reauth.about).toBe('reauth');
    expect(reauth.text).toMatch(/^The hourly run at \w{3} \d+, \d\d:\d\d found that Google needs you to allow this add-on again/);
    expect(reauth.text).toContain(`"${consentOf('mail')}"`);
    expect(reauth.url).toMatch(GOOGLE_LINK);
    expect(reauth.text).toMatch(/ Allow the add-on again\.$/);
    expect((rt.scriptRun('getConsent', [], { user: EDITOR }) as any).notices).toEqual([]);
    rt.grant(OWNER, 'all');
    expect(rt.scriptRun('getConsent')).toEqual({ notices: [] });
  } finally {
    await rt.stop();
  }
});
