/**
 * Re-scan on a schedule (issue 23), on the BUILT add-on in the local runtime's virtual clock against
 * the local Scan Service behind a fault proxy: a weekly schedule over four weeks across a quota
 * exhaustion and a service outage, then a deleted sheet (paused, said, nothing lost); a header that
 * changed (paused); a second trigger run in one slot sends nothing more. New scan's "All columns"
 * (issue 36) is the supplier's like its other options: the re-scan imports the same columns, its room
 * check counts them, and the next New scan starts with it.
 */
import { connect, listWorkbook, runtime, useServiceBehindProxy } from './scanflow-helpers';
import { waitFinished } from './import-helpers';
import type { Workbook } from '../../emulator/gas/spreadsheet';
import { schedulesKey } from '../../src/store/schedules';
import { IMPORT_TUNING_KEY } from '../../src/store/keys';

jest.setTimeout(180_000);

const env = useServiceBehindProxy({ SCAN_SERVICE_SPEED: '600000' });
const OWNER = 'owner@example.com';
const HOUR = 3600_000;
const DAY = 24 * HOUR;
type Rt = ReturnType<typeof runtime>;

/** The list scanned once from New scan (as the sidebar sends it, `columns` its "All columns") and imported by the hourly trigger. */
async function scannedList(
  sheetName = 'List',
  cost?: number,
  columns?: 'all',
): Promise<{ wb: Workbook; rt: Rt; first: number; id: string }> {
  const wb = listWorkbook(6, OWNER);
  wb.requireSheet('List').name = sheetName;
  if (cost !== undefined) for (let r = 2; r <= 7; r++) wb.writeInput(wb.requireSheet(sheetName), r, 2, cost);
  const rt = runtime(wb);
  connect(rt, env.proxy.url, env.svc.apiKey);
  const setup: any = rt.scriptRun('getScanSetup', [{ sheetName }]);
  const started: any = rt.scriptRun('startScan', [
    {
      roles: setup.columns.map((c: any) => c.role),
      options: { marketplace: 'US', name: 'ACME', targetRoi: '30' },
      sheetName: setup.sheetName,
      rangeA1: setup.rangeA1,
      selection: setup.selection,
      headerRow: setup.headerRow,
      headers: setup.columns.map((c: any) => c.header),
      ...(columns ? { columns } : {}),
    },
  ]);
  const first = started.progress.scanId;
  await waitFinished(env.svc, first);
  rt.advance(HOUR);
  expect(rt.runDueTriggers()).toMatchObject([{ handler: 'importFinishedScans', ok: true }]);
  expect(wb.sheetNames()).toContain('ACME');
  const id = (rt.scriptRun('getRememberedSuppliers') as any[])[0].id;
  return { wb, rt, first, id };
}

/** Uploads that reached the service (not answered by the proxy's faults). */
async function uploads(): Promise<number> {
  return (await env.proxy.seen()).filter((s) => s.method === 'POST' && s.path === '/api/v3/scans' && !s.injected).length;
}

function record(rt: Rt, wb: Workbook): any {
  return JSON.parse(rt.properties.user(OWNER).get(schedulesKey(wb.id)) || '[]')[0];
}

/** Runs the hourly trigger hour by hour until `until` (virtual), waiting for each scheduled scan the service runs. */
async function hoursUntil(rt: Rt, wb: Workbook, until: number): Promise<void> {
  while (rt.state.clock.now() + HOUR <= until) {
    rt.advance(HOUR);
    const fired = rt.runDueTriggers();
    for (const f of fired) expect(f).toMatchObject({ handler: 'importFinishedScans', ok: true });
    const r = record(rt, wb);
    if (r && r.sid !== undefined) await waitFinished(env.svc, r.sid);
  }
}

const changesTabs = (wb: Workbook) => wb.sheetNames().filter((n) => /change/i.test(n));
const schedule = (rt: Rt) => (rt.scriptRun('getSchedules') as any[])[0];

test('a weekly schedule over four weeks: sends once a week, writes the Changes tab, skips a week for a daily quota and for an outage (said), pauses on a deleted sheet with nothing lost', async () => {
  const { wb, rt, first, id } = await scannedList();
  try {
    const saved: any = rt.scriptRun('saveSchedule', [id, 'w1@6', first]);
    expect(saved.notice).toBeNull();
    // START is Friday Nov 20, 23:30 UTC (the spreadsheet's zone): the first run is Monday Nov 23 at 06:00.
    expect(saved.schedules[0]).toMatchObject({
      label: 'every Monday at 06:00',
      paused: false,
      line: 'Next run: Mon Nov 23, 06:00. Each run is a paid scan at the Scan Service, like one you start.',
    });
    const base = await uploads();

    // Week 1: one scan sent after 06:00 Monday, imported, Changes against the first scan.
    const mon1 = Date.UTC(2026, 10, 23, 6);
    await hoursUntil(rt, wb, mon1 - 1);
    expect(await uploads()).toBe(base);
    await hoursUntil(rt, wb, mon1 + 6 * HOUR);
    expect(await uploads()).toBe(base + 1);
    const week1 = record(rt, wb);
    expect(week1.sid).toBeUndefined();
    expect(week1.prev).toBeGreaterThan(first);
    // Nothing changed since the first scan: said, and no tab of headers alone (issue 32: "an empty Changes (2) tab").
    expect(changesTabs(wb)).toEqual([]);
    expect(schedule(rt).summary).toMatch(
      new RegExp(
        '^Mon Nov 23, 0\\d:\\d\\d — scan ' +
          week1.prev +
          ' against ' +
          first +
          ' \\(no Changes tab\\): No product changed \\(3 unchanged\\)\\.$',
      ),
    );
    expect(schedule(rt).line).toContain('Next run: Mon Nov 30, 06:00.');

    // Week 2: the user's URL Fetch calls for the day are spent before the slot: skipped, said, not sent.
    const mon2 = mon1 + 7 * DAY;
    await hoursUntil(rt, wb, mon2 - HOUR);
    rt.quotas.spend(OWNER, 'urlFetchCalls', 20_000 - rt.quotaUsage().urlFetchCalls.used);
    await hoursUntil(rt, wb, mon2 + 6 * HOUR);
    expect(await uploads()).toBe(base + 1);
    expect(schedule(rt).status).toMatch(
      /^The scan of Mon Nov 30, 06:00 was skipped: Google's daily quota was reached\. Nothing was sent\./,
    );

    // Week 3: the service is down (503 to every upload): skipped, said, not charged.
    const mon3 = mon2 + 7 * DAY;
    await hoursUntil(rt, wb, mon3 - HOUR);
    await env.proxy.faults([{ method: 'POST', path: '^/api/v3/scans$', status: 503, times: 1000 }]);
    await hoursUntil(rt, wb, mon3 + 6 * HOUR);
    await env.proxy.faults([]);
    expect(await uploads()).toBe(base + 1);
    // The slot was recorded before the upload was tried: no later run in it tries again.
    expect(record(rt, wb).k).toBe(mon3);
    expect((await env.proxy.seen()).filter((x) => x.method === 'POST' && x.path === '/api/v3/scans' && x.injected).length).toBeGreaterThan(
      0,
    );
    expect(schedule(rt).status).toMatch(
      /^The scan of Mon Dec 7, 06:00 was skipped: the Scan Service could not take it: .*Nothing was charged\. Next run: Mon Dec 14, 06:00\.$/,
    );

    // Week 4: the supplier raised a price; sent again; Changes against week 1's scan (the previous scan of the list).
    const mon4 = mon3 + 7 * DAY;
    wb.writeInput(wb.requireSheet('List'), 2, 2, 9.5);
    await hoursUntil(rt, wb, mon4 + 6 * HOUR);
    expect(await uploads()).toBe(base + 2);
    const week4 = record(rt, wb);
    // The minute within 07:xx depends on how many runs the scan took at the service (its real-time
    // speed against the virtual hours): seen 07:39 and 07:40 in one run each. The rest is exact.
    const at = /^Scan \d+ imported and compared on (Mon Dec 14, 07:\d\d)\.$/.exec(schedule(rt).status);
    expect(at).not.toBeNull();
    expect(schedule(rt).status).toBe('Scan ' + week4.prev + ' imported and compared on ' + at![1] + '.');
    expect(schedule(rt).summary).toBe(
      at![1] + ' — scan ' + week4.prev + ' against ' + week1.prev + ' ("List 2026-12-14 – Changes"): 1 profit down · 2 unchanged.',
    );
    expect(changesTabs(wb)).toEqual(['List 2026-12-14 – Changes']);
    // The seller sees it in Scans and in Settings' Remembered suppliers.
    const line =
      'List: Scanned again every Monday at 06:00. Next run: Mon Dec 21, 06:00. Each run is a paid scan at the Scan Service, like one you start.';
    expect((rt.scriptRun('listScans', [1]) as any).schedules).toEqual([
      line + ' ' + schedule(rt).status + ' Last changes: ' + schedule(rt).summary,
    ]);
    expect((rt.scriptRun('getRememberedSuppliers') as any[])[0]).toMatchObject({
      rule: 'w1@6',
      schedule: line.slice(6) + ' ' + schedule(rt).status + ' Last changes: ' + schedule(rt).summary,
    });

    // The list's sheet is deleted: the next slot pauses the schedule and says so; every tab stays.
    const tabs = wb.sheetNames().filter((n) => n !== 'List');
    wb.sheets.splice(
      wb.sheets.findIndex((s) => s.name === 'List'),
      1,
    );
    await hoursUntil(rt, wb, mon4 + 7 * DAY + 6 * HOUR);
    expect(await uploads()).toBe(base + 2);
    expect(schedule(rt)).toMatchObject({ paused: true });
    expect(schedule(rt).line).toContain('The sheet "List" was deleted, so the schedule is paused. Nothing was sent.');
    expect(wb.sheetNames()).toEqual(tabs);
    expect(schedule(rt).summary).toContain('scan ' + week4.prev); // the last summary stays
  } finally {
    await rt.stop();
  }
});

test('a second trigger run in the same slot sends nothing more', async () => {
  const { wb, rt, first, id } = await scannedList();
  try {
    rt.scriptRun('saveSchedule', [id, 'd@6', first]);
    const base = await uploads();
    await hoursUntil(rt, wb, Date.UTC(2026, 10, 21, 6, 45));
    expect(await uploads()).toBe(base + 1);
    const claimed = record(rt, wb).k;
    expect(claimed).toBe(Date.UTC(2026, 10, 21, 6));
    // Google runs the handler again within the slot (a duplicate fire, or a run started by hand).
    rt.scriptRun('importFinishedScans');
    rt.scriptRun('importFinishedScans');
    expect(await uploads()).toBe(base + 1);
    expect(record(rt, wb).k).toBe(claimed);
  } finally {
    await rt.stop();
  }
});

test('a header that changed pauses the schedule and says so; nothing is sent', async () => {
  const { wb, rt, first, id } = await scannedList();
  try {
    rt.scriptRun('saveSchedule', [id, 'd@6', first]);
    wb.writeInput(wb.requireSheet('List'), 1, 2, 'Unit price');
    const base = await uploads();
    await hoursUntil(rt, wb, Date.UTC(2026, 10, 21, 7));
    expect(await uploads()).toBe(base);
    expect(schedule(rt)).toMatchObject({ paused: true });
    expect(schedule(rt).line).toContain(
      'The header row of "List" changed since it was scheduled, so the schedule is paused. Nothing was sent.',
    );
    // Paused: later slots do nothing, and Save runs it again.
    await hoursUntil(rt, wb, Date.UTC(2026, 10, 22, 7));
    expect(await uploads()).toBe(base);
  } finally {
    await rt.stop();
  }
});

test('a trigger run without its document (Google does not promise one to an add-on trigger, add-ons triggers guide) does nothing: the slot is sent by the next run within 6 hours, later skipped and said', async () => {
  const { wb, rt, first, id } = await scannedList();
  try {
    rt.scriptRun('saveSchedule', [id, 'd@6', first]);
    const base = await uploads();
    // Saturday: the runs at 06:30 and 07:30 have no document; the 08:30 run sends the 06:00 slot.
    await hoursUntil(rt, wb, Date.UTC(2026, 10, 21, 5));
    rt.triggerDocument = 'none';
    await hoursUntil(rt, wb, Date.UTC(2026, 10, 21, 8));
    expect(await uploads()).toBe(base);
    rt.triggerDocument = 'active';
    await hoursUntil(rt, wb, Date.UTC(2026, 10, 21, 9));
    expect(await uploads()).toBe(base + 1);
    // Sunday: no document until 13:30, more than 6 hours after the slot: skipped, said, not sent.
    await hoursUntil(rt, wb, Date.UTC(2026, 10, 22, 5));
    rt.triggerDocument = 'none';
    await hoursUntil(rt, wb, Date.UTC(2026, 10, 22, 13));
    rt.triggerDocument = 'active';
    await hoursUntil(rt, wb, Date.UTC(2026, 10, 22, 14));
    expect(await uploads()).toBe(base + 1);
    expect(schedule(rt).status).toBe(
      "The scan of Sun Nov 22, 06:00 was skipped: the add-on could not run at that time (Google's daily quota, or the document was not open to it). Nothing was sent. Next run: Mon Nov 23, 06:00.",
    );
    // Monday: sent as usual.
    await hoursUntil(rt, wb, Date.UTC(2026, 10, 23, 7));
    expect(await uploads()).toBe(base + 2);
  } finally {
    await rt.stop();
  }
});

test('a scheduled scan still running is waited for, not compared from the service early, when the temporary user key rotates and differs in the trigger (Session reference: rotates every 30 days)', async () => {
  const { wb, rt, first, id } = await scannedList();
  try {
    rt.state.userKeys.trigger = 'other';
    rt.scriptRun('saveSchedule', [id, 'd@6', first]);
    await hoursUntil(rt, wb, Date.UTC(2026, 10, 21, 6));
    rt.advance(HOUR); // 06:30: the slot is sent
    expect(rt.runDueTriggers()).toMatchObject([{ handler: 'importFinishedScans', ok: true }]);
    const sid = record(rt, wb).sid;
    expect(sid).toBeGreaterThan(first);
    // The service says it is still running; meanwhile the temporary key rotates.
    const running = JSON.stringify({ id: sid, name: 'List', status: 'running', marketplace: 'US', created_at: '2026-11-21T06:30:00Z' });
    await env.proxy.faults([{ method: 'GET', path: '^/api/v3/scans/' + sid + '$', status: 200, body: running, times: 1000 }]);
    rt.rotateUserKeys();
    rt.advance(HOUR);
    expect(rt.runDueTriggers()).toMatchObject([{ handler: 'importFinishedScans', ok: true }]);
    expect(record(rt, wb).sid).toBe(sid);
    expect(changesTabs(wb)).toEqual([]);
    expect(schedule(rt).summary).toBe('');
    // It finishes: imported (its record was not lost) and compared with the first scan.
    await env.proxy.faults([]);
    await waitFinished(env.svc, sid);
    rt.rotateUserKeys();
    rt.advance(HOUR);
    expect(rt.runDueTriggers()).toMatchObject([{ handler: 'importFinishedScans', ok: true }]);
    expect(record(rt, wb).sid).toBeUndefined();
    expect(wb.sheetNames()).toContain('List 2026-11-21');
    expect(schedule(rt).summary).toContain('scan ' + sid + ' against ' + first + ' (no Changes tab): No product changed');
  } finally {
    await rt.stop();
  }
});

test('a lock time-out in the schedules (LockService reference: waitLock throws "Lock timeout") stops only that part of the hourly run: the lists sync still runs, the slot is sent the next hour', async () => {
  const { wb, rt, first, id } = await scannedList();
  try {
    rt.scriptRun('saveSchedule', [id, 'd@6', first]);
    rt.scriptRun('setAutoSync', [true]);
    const base = await uploads();
    await hoursUntil(rt, wb, Date.UTC(2026, 10, 21, 6));
    // 06:30, the slot due: another execution writes this spreadsheet for longer than the schedules wait (30 s).
    rt.advance(HOUR);
    rt.locks.hold('document', { forMs: 40_000 });
    const logsBefore = rt.logs.length;
    expect(rt.runDueTriggers()).toMatchObject([{ handler: 'importFinishedScans', ok: true }]);
    const said = rt.logs.slice(logsBefore).join('\n');
    expect(said).toContain('hourly run: the schedules waited too long for this spreadsheet');
    expect(said).toContain('automatic lists sync:');
    expect(await uploads()).toBe(base);
    expect(record(rt, wb).k).toBeUndefined();
    // 07:30: the slot is sent (within its 6 hours).
    rt.advance(HOUR);
    expect(rt.runDueTriggers()).toMatchObject([{ handler: 'importFinishedScans', ok: true }]);
    expect(await uploads()).toBe(base + 1);
    expect(record(rt, wb).k).toBe(Date.UTC(2026, 10, 21, 6));
  } finally {
    await rt.stop();
  }
});

describe("schedules in both trigger worlds (Google does not say whether an add-on's clock trigger has its spreadsheet: apps-script-platform.md)", () => {
  test('without the document the schedule never says "Next run", the email opt-in says runs wait for the sidebar, and the sidebar offers the due slot: one click sends it, a second click and the trigger send nothing more', async () => {
    const { wb, rt, first, id } = await scannedList();
    try {
      rt.scriptRun('saveSchedule', [id, 'd@6', first, true]);
      // The trigger had the document at 00:30: the trigger's world, said as usual.
      expect(schedule(rt).line).toMatch(/^Next run: Sat Nov 21, 06:00\. /);
      expect((rt.scriptRun('getRememberedSuppliers') as any[])[0].emailLabel).toBe('Email me a summary after each run');
      expect(rt.scriptRun('getDueScans')).toEqual([]);
      const base = await uploads();
      rt.triggerDocument = 'none';
      await hoursUntil(rt, wb, Date.UTC(2026, 10, 21, 8));
      expect(await uploads()).toBe(base);
      const line = schedule(rt).line;
      expect(line).not.toContain('Next run');
      expect(line).toBe(
        'Due Sun Nov 22, 06:00, sent only when you open the sidebar then or later (it offers each run that is due): the hourly run at Nov 21, 07:30 could not open this spreadsheet (Google did not give it to the add-on). Each run is a paid scan at the Scan Service, like one you start.',
      );
      expect(((rt.scriptRun('listScans', [1]) as any).schedules as string[])[0]).not.toContain('Next run');
      expect((rt.scriptRun('getRememberedSuppliers') as any[])[0].emailLabel).toBe(
        'Email me a summary after each run (here runs happen only when you open the sidebar, so the email comes then)',
      );
      // The sidebar opens: the slot due is offered; one click sends it through the trigger's own path.
      const due: any[] = rt.scriptRun('getDueScans') as any[];
      expect(due).toEqual([
        {
          id,
          slot: Date.UTC(2026, 10, 21, 6),
          question: 'The daily scan of List is due (Sat Nov 21, 06:00): send it now (a paid scan)?',
        },
      ]);
      const sent: any = rt.scriptRun('sendDueScan', [id, due[0].slot]);
      expect(sent.message).toMatch(/^Sent scan \d+ \(List 2026-11-21\) on Sat Nov 21, 0\d:\d\d; its Changes tab follows its import\./);
      expect(sent.progress.scanId).toBe(record(rt, wb).sid);
      expect(record(rt, wb).k).toBe(Date.UTC(2026, 10, 21, 6));
      expect(await uploads()).toBe(base + 1);
      // A second click (another sidebar), and the trigger in either world: nothing more for this slot.
      expect((rt.scriptRun('sendDueScan', [id, due[0].slot]) as any).message).toBe(
        'This run was already sent (or skipped) by another run. Nothing more was sent.',
      );
      expect(rt.scriptRun('getDueScans')).toEqual([]);
      await waitFinished(env.svc, sent.progress.scanId);
      await hoursUntil(rt, wb, Date.UTC(2026, 10, 21, 11));
      expect(await uploads()).toBe(base + 1);
      expect(schedule(rt).summary).toBe('');
      // Still no document: the sidebar imports the finished scan (its card does, on importNow), and on
      // the next open compares it as the trigger would, and emails the summary.
      const listed = rt.scriptRun('getRunningScans') as any[];
      expect(listed).toMatchObject([{ scanId: sent.progress.scanId, importNow: true }]);
      expect(rt.scriptRun('importScan', [sent.progress.scanId, null])).toMatchObject({ done: true });
      expect(rt.scriptRun('getDueScans')).toEqual([]);
      expect(schedule(rt).summary).toContain('scan ' + sent.progress.scanId + ' against ' + first);
      expect(rt.outbox).toHaveLength(1);
      expect(rt.outbox[0].body).toContain('\nThe next run is due Sun Nov 22, 06:00: it is sent when you open the sidebar then or later.\n');
      expect(rt.outbox[0].body).not.toContain('Next run:');
      expect(schedule(rt).status).not.toContain('Next run');
      // With the document again, the line is the trigger's again.
      rt.triggerDocument = 'active';
      await hoursUntil(rt, wb, Date.UTC(2026, 10, 21, 12));
      expect(await uploads()).toBe(base + 1);
      expect(schedule(rt).line).toMatch(/^Next run: Sun Nov 22, 06:00\. /);
    } finally {
      await rt.stop();
    }
  });

  test("one user's two spreadsheets, one whose trigger has its document and one whose trigger has none: each says its own world, whatever order the runs come in", async () => {
    const { wb, rt } = await scannedList();
    const wb2 = listWorkbook(6, OWNER);
    const rt2 = runtime(wb2, { sameScriptAs: rt, clock: rt.state.clock, triggerDocument: 'none' });
    try {
      rt.scriptRun('setAutoSync', [true]);
      rt2.scriptRun('setAutoSync', [true]);
      expect(rt2.triggers.records).toHaveLength(1);
      const notice = (r: Rt) => (r.scriptRun('getListsStatus') as any).notice as string | null;
      for (const order of [
        [rt, rt2],
        [rt2, rt],
        [rt, rt2],
      ]) {
        rt.advance(HOUR);
        for (const r of order) expect(r.runDueTriggers()).toMatchObject([{ handler: 'importFinishedScans', ok: true }]);
        expect(notice(rt)).toBeNull();
        expect(notice(rt2)).toMatch(/^Automatic sync did not run: the hourly trigger ran at .* without access to this spreadsheet/);
      }
      void wb;
    } finally {
      await rt2.stop();
      await rt.stop();
    }
  });
});

describe('the opt-in email after each run (MailApp, developers.google.com/apps-script/reference/mail/mail-app)', () => {
  // Supplier text that must stay text: a formula and markup in the list's sheet name.
  const HOSTILE = '=HYPERLINK("http://x.example","<script>alert(1)</script>")';
  /** Day one's run (Saturday Nov 21, 06:00) done: sent, imported and compared with the card's scan. */
  async function firstRun(rt: Rt, wb: Workbook): Promise<void> {
    // The supplier cut every price: products that did not pay now do.
    for (let r = 2; r <= 7; r++) wb.writeInput(wb.requireSheet(HOSTILE), r, 2, 0.05);
    await hoursUntil(rt, wb, Date.UTC(2026, 10, 21, 12));
    expect(schedule(rt).summary).toMatch(/ — scan \d+ against \d+/);
  }

  test('opted in: a run sends exactly one plain-text email, to the schedule owner only, with the summary, the newly profitable products and how profit/ROI were computed, the next run, the cost and how to pause; supplier text verbatim', async () => {
    const { wb, rt, first, id } = await scannedList(HOSTILE, 500); // nothing pays at that cost
    try {
      const saved: any = rt.scriptRun('saveSchedule', [id, 'd@6', first, true]);
      expect(saved.schedules[0].email).toBe(true);
      expect((rt.scriptRun('getRememberedSuppliers') as any[])[0].email).toBe(true);
      await firstRun(rt, wb);
      expect(rt.outbox).toHaveLength(1);
      const m = rt.outbox[0];
      expect(m).toMatchObject({ from: OWNER, to: [OWNER], cc: [], bcc: [], htmlBody: null });
      const summary = /: (.*)\.$/.exec(schedule(rt).summary)![1];
      expect(m.subject).toBe(('Changes in "' + HOSTILE + '": ' + summary).slice(0, 200));
      expect(m.body).toContain('Scheduled scan of the sheet "' + HOSTILE + '" in the spreadsheet "List".');
      expect(m.body).toContain('\n' + summary + '.\n');
      expect(summary).toMatch(/^\d+ newly profitable/);
      expect(m.body).toMatch(/\nNewly profitable, highest profit first:\n- B\w{9} .*: profit \$\d+\.\d\d, ROI -?\d+(\.\d+)?%\n/);
      expect(m.body).toContain('Profit of one order = Net revenue − Total cost − Prep − Inbound shipping');
      expect(m.body).toContain('ROI = Profit ÷ (Total cost + Prep + Inbound shipping).');
      expect(m.body).toContain('\nNext run: Sun Nov 22, 06:00.\nEach run is a paid scan at the Scan Service, like one you start.\n');
      expect(m.body).toContain('Settings > Remembered suppliers, then Pause');
      expect(schedule(rt).status).not.toContain('email');
      // The next day's run mails once more; nothing else does.
      await hoursUntil(rt, wb, Date.UTC(2026, 10, 22, 12));
      expect(rt.outbox).toHaveLength(2);
      expect(rt.outbox.every((x) => x.to.length === 1 && x.to[0] === OWNER && x.htmlBody === null)).toBe(true);
    } finally {
      await rt.stop();
    }
  });

  test('not opted in (the default): no email', async () => {
    const { wb, rt, first, id } = await scannedList();
    try {
      const saved: any = rt.scriptRun('saveSchedule', [id, 'd@6', first]);
      expect(saved.schedules[0].email).toBe(false);
      await hoursUntil(rt, wb, Date.UTC(2026, 10, 21, 12));
      expect(schedule(rt).summary).toMatch(/ — scan \d+ against \d+/);
      expect(rt.outbox).toEqual([]);
    } finally {
      await rt.stop();
    }
  });

  test('quotas page, "Email recipients per day" used up: the run still succeeds, the summary stays in Scans and the status says the email was not sent', async () => {
    const { wb, rt, first, id } = await scannedList();
    try {
      rt.scriptRun('saveSchedule', [id, 'd@6', first, true]);
      await hoursUntil(rt, wb, Date.UTC(2026, 10, 21, 5));
      rt.quotas.spend(OWNER, 'emailRecipients', 100);
      await hoursUntil(rt, wb, Date.UTC(2026, 10, 21, 12)); // each trigger run is checked ok there
      expect(rt.outbox).toEqual([]);
      expect(schedule(rt).summary).toMatch(/ — scan \d+ against \d+/);
      expect(schedule(rt).status).toMatch(
        / imported and compared on .*\. The summary email was not sent: Google's daily email quota for your account is used up \(the summary is here in Scans\)\.$/,
      );
      expect(((rt.scriptRun('listScans', [1]) as any).schedules as string[])[0]).toContain('The summary email was not sent');
    } finally {
      await rt.stop();
    }
  });

  test("in a shared document another editor's run neither claims the owner's slot nor mails anyone; the owner's run mails the owner only", async () => {
    const EDITOR = 'editor@example.com';
    const { wb, rt, first, id } = await scannedList();
    try {
      rt.scriptRun('saveSchedule', [id, 'd@6', first, true]);
      connect(rt, env.proxy.url, env.svc.apiKey, EDITOR);
      await hoursUntil(rt, wb, Date.UTC(2026, 10, 21, 5));
      rt.advance(3 * HOUR); // 07:30, the slot due
      rt.scriptRun('importFinishedScans', [], { user: EDITOR });
      expect(rt.outbox).toEqual([]);
      expect(record(rt, wb).k).toBeUndefined();
      await hoursUntil(rt, wb, Date.UTC(2026, 10, 21, 12));
      expect(rt.outbox.map((m) => [m.from, m.to])).toEqual([[OWNER, [OWNER]]]);
    } finally {
      await rt.stop();
    }
  });

  test('a schedule that pauses itself (the header changed) is emailed once, saying so and that nothing more is sent until saved again', async () => {
    const { wb, rt, first, id } = await scannedList();
    try {
      rt.scriptRun('saveSchedule', [id, 'd@6', first, true]);
      wb.writeInput(wb.requireSheet('List'), 1, 2, 'Unit price');
      await hoursUntil(rt, wb, Date.UTC(2026, 10, 22, 12));
      expect(rt.outbox).toHaveLength(1);
      expect(rt.outbox[0].body).toContain(
        '\nThe header row of "List" changed since it was scheduled, so the schedule is paused. Nothing was sent.',
      );
      expect(rt.outbox[0].body).toContain(
        '\nThe schedule is paused: nothing more is sent until you Save it again in Settings > Remembered suppliers.\n',
      );
    } finally {
      await rt.stop();
    }
  });

  test('a skipped slot is emailed too, said plainly', async () => {
    const { wb, rt, first, id } = await scannedList();
    try {
      rt.scriptRun('saveSchedule', [id, 'd@6', first, true]);
      await hoursUntil(rt, wb, Date.UTC(2026, 10, 21, 5));
      await env.proxy.faults([{ method: 'POST', path: '^/api/v3/scans$', status: 503, times: 1000 }]);
      await hoursUntil(rt, wb, Date.UTC(2026, 10, 21, 8));
      await env.proxy.faults([]);
      expect(rt.outbox).toHaveLength(1);
      expect(rt.outbox[0].to).toEqual([OWNER]);
      expect(rt.outbox[0].subject).toBe('Scheduled scan of "List"');
      expect(rt.outbox[0].body).toContain('\nThe scan of Sat Nov 21, 06:00 was skipped: the Scan Service could not take it: ');
      expect(rt.outbox[0].body).toContain('Nothing was charged. Next run: Sun Nov 22, 06:00.\n');
    } finally {
      await rt.stop();
    }
  });
});

test('"All columns" is remembered for the supplier: the scheduled re-scan imports the same columns, and the next New scan starts with it ticked (issue 36)', async () => {
  const { wb, rt, first, id } = await scannedList('List', undefined, 'all');
  try {
    const chosen = wb.values('ACME')[0];
    // The premise: the first tab has the columns "All" adds (inches and pounds among them).
    expect(chosen).toEqual(expect.arrayContaining(['Listing UPC', 'Competing sellers', 'Can send to FBA', 'Package weight (lb)']));
    rt.scriptRun('saveSchedule', [id, 'd@6', first]);
    const base = await uploads();
    await hoursUntil(rt, wb, Date.UTC(2026, 10, 21, 8));
    expect(await uploads()).toBe(base + 1);
    // Imported by the trigger in the same shape as the seller's own scan: the tab does not change shape.
    expect(wb.sheetNames()).toContain('List 2026-11-21');
    expect(wb.values('List 2026-11-21')[0]).toEqual(chosen);
    // The next New scan of the list starts with All columns, like its other remembered options.
    const setup: any = rt.scriptRun('getScanSetup', [{ sheetName: 'List' }]);
    expect(setup.memory).toMatchObject({ options: { marketplace: 'US', targetRoi: '30' }, columns: 'all' });
  } finally {
    await rt.stop();
  }
});

test("the scheduled re-scan's room check counts All columns: when only the essential ones would fit, the slot is skipped and said, nothing sent", async () => {
  const { wb, rt, first, id } = await scannedList('List', undefined, 'all');
  try {
    rt.scriptRun('saveSchedule', [id, 'd@6', first]);
    // What New scan's preview counts for the list now, with All columns and with the essential ones.
    const setup: any = rt.scriptRun('getScanSetup', [{ sheetName: 'List' }]);
    const request = {
      roles: setup.columns.map((c: any) => c.role),
      options: { marketplace: 'US', name: 'Room' },
      sheetName: setup.sheetName,
      rangeA1: setup.rangeA1,
      selection: setup.selection,
      headerRow: setup.headerRow,
    };
    const all = (rt.scriptRun('previewScan', [{ ...request, columns: 'all' }]) as any).room;
    const essential = (rt.scriptRun('previewScan', [request]) as any).room;
    expect(all.needed).toBeGreaterThan(essential.needed);
    // A spreadsheet with room for the essential columns' results only (the support knob, as a smaller Google would).
    const limit = all.used + Math.floor((all.needed + essential.needed) / 2);
    wb.cellLimit = limit;
    rt.properties.script.set(IMPORT_TUNING_KEY, JSON.stringify({ cellLimit: limit }));
    const base = await uploads();
    await hoursUntil(rt, wb, Date.UTC(2026, 10, 21, 8));
    expect(await uploads()).toBe(base);
    expect(schedule(rt).status).toMatch(/^The scan of Sat Nov 21, 06:00 was skipped: /);
    expect(schedule(rt).status).toContain('× ' + all.columns + ' columns need about');
    expect(schedule(rt).status).toContain("The essential columns instead of all of them (New scan's Columns)");
  } finally {
    await rt.stop();
  }
});
