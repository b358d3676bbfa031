import { type Runtime } from '../../emulator/gas';
import { METHOD_SCOPES } from '../../emulator/gas/scopes';
import { fixtureWithScopes, thrown } from './helpers';

const AUTH = 'https://www.googleapis.com/auth/';
const OWNER = 'owner@example.com';
const HOUR = 3600_000;
const PAGE = 'https://developers.google.com/apps-script/reference/mail/mail-app';

const run = (rt: Runtime, src: string, args: unknown = null, opts: Parameters<Runtime['run']>[2] = {}) =>
  rt.run('evaluate', [src, args], opts);
const send = (rt: Runtime, to: string, opts: Parameters<Runtime['run']>[2] = {}) =>
  run(rt, 'MailApp.sendEmail(args, "Hello", "Body text"); return MailApp.getRemainingDailyQuota()', to, opts);

describe('MailApp reference (developers.google.com/apps-script/reference/mail/mail-app)', () => {
  test('Authorization: sendEmail and getRemainingDailyQuota need script.send_mail; without it Google\'s "Required permissions" message and nothing is sent', async () => {
    expect(METHOD_SCOPES['MailApp.sendEmail']).toMatchObject({ anyOf: [AUTH + 'script.send_mail'] });
    expect(METHOD_SCOPES['MailApp.sendEmail'].page.startsWith(PAGE)).toBe(true);
    expect(METHOD_SCOPES['MailApp.getRemainingDailyQuota'].page.startsWith(PAGE)).toBe(true);
    const rt = fixtureWithScopes(['spreadsheets.currentonly', 'userinfo.email']);
    try {
      expect(thrown(() => send(rt, OWNER))).toBe(
        `You do not have permission to call MailApp.sendEmail. Required permissions: ${AUTH}script.send_mail`,
      );
      expect(thrown(() => run(rt, 'return MailApp.getRemainingDailyQuota()'))).toBe(
        `You do not have permission to call MailApp.getRemainingDailyQuota. Required permissions: ${AUTH}script.send_mail`,
      );
      expect(rt.outbox).toEqual([]);
    } finally {
      await rt.stop();
    }
  });

  test('sendEmail(recipient, subject, body) and sendEmail(message): the message reaches the outbox as given, from the running user, plain text unless htmlBody is given', async () => {
    const rt = fixtureWithScopes(['script.send_mail']);
    try {
      send(rt, 'a@example.com');
      run(rt, 'MailApp.sendEmail({to: "b@example.com, c@example.com", cc: "d@example.com", subject: "S", body: "<b>x</b>"})');
      expect(rt.outbox).toMatchObject([
        { from: OWNER, to: ['a@example.com'], cc: [], bcc: [], subject: 'Hello', body: 'Body text', htmlBody: null },
        { from: OWNER, to: ['b@example.com', 'c@example.com'], cc: ['d@example.com'], body: '<b>x</b>', htmlBody: null },
      ]);
      expect(thrown(() => run(rt, 'MailApp.sendEmail("a@example.com", "only a subject")'))).toBe(
        "The parameters (String,String) don't match the method signature for MailApp.sendEmail.",
      );
    } finally {
      await rt.stop();
    }
  });

  test('an address that is not one fails with Google\'s "Invalid email: …" (as public logs of the exception show it); nothing is sent or counted', async () => {
    const rt = fixtureWithScopes(['script.send_mail']);
    try {
      expect(thrown(() => send(rt, 'not an address'))).toBe('Invalid email: not an address');
      expect(thrown(() => run(rt, 'MailApp.sendEmail({to: "a@example.com", bcc: "x@", subject: "S", body: "B"})'))).toBe(
        'Invalid email: x@',
      );
      expect(rt.outbox).toEqual([]);
      expect(rt.quotaUsage().emailRecipients.used).toBe(0);
    } finally {
      await rt.stop();
    }
  });

  test('guides/sheets/functions and the add-on authorization lifecycle: MailApp needs authorization, so a custom function and a simple trigger (LIMITED) may not use it', async () => {
    const rt = fixtureWithScopes(['script.send_mail']);
    try {
      for (const opts of [{ kind: 'custom-function' as const }, { kind: 'simple-trigger' as const, authMode: 'LIMITED' as const }])
        expect(thrown(() => send(rt, OWNER, opts))).toBe('You do not have permission to call MailApp service.');
      expect(rt.outbox).toEqual([]);
    } finally {
      await rt.stop();
    }
  });
});

describe('installable triggers guide / add-on authorization lifecycle: a time-driven trigger runs in AuthMode FULL', () => {
  test('its handler may send email (MailApp needs authorization); the message goes to the trigger owner, who is the effective user', async () => {
    const rt = fixtureWithScopes(['script.send_mail', 'script.scriptapp', 'userinfo.email', 'spreadsheets.currentonly']);
    try {
      run(rt, "ScriptApp.newTrigger('mailTick').timeBased().everyHours(1).create()");
      rt.advance(HOUR);
      expect(rt.runDueTriggers()).toMatchObject([{ handler: 'mailTick', ok: true }]);
      expect(rt.outbox).toMatchObject([{ from: OWNER, to: [OWNER], subject: 'tick', body: 'FULL' }]);
    } finally {
      await rt.stop();
    }
  });
});

describe('quotas page (developers.google.com/apps-script/guides/services/quotas), "Email recipients per day"', () => {
  test('100 a day for a consumer account, counted per recipient (to + cc + bcc); past it "Service invoked too many times for one day: email." and nothing is sent; 24 hours after the first, a new day', async () => {
    const rt = fixtureWithScopes(['script.send_mail']);
    try {
      expect(rt.quotaUsage().emailRecipients.limit).toBe(100);
      expect(run(rt, 'return MailApp.getRemainingDailyQuota()')).toBe(100);
      expect(send(rt, OWNER)).toBe(99);
      run(rt, 'MailApp.sendEmail({to: "a@example.com", cc: "b@example.com", bcc: "c@example.com", subject: "S", body: "B"})');
      expect(run(rt, 'return MailApp.getRemainingDailyQuota()')).toBe(96);
      rt.quotas.spend(OWNER, 'emailRecipients', 95);
      expect(send(rt, OWNER)).toBe(0);
      const sent = rt.outbox.length;
      expect(thrown(() => send(rt, OWNER))).toBe('Service invoked too many times for one day: email.');
      expect(rt.outbox).toHaveLength(sent);
      // Another user has their own quota.
      expect(send(rt, 'editor@example.com', { user: 'editor@example.com' })).toBe(99);
      rt.advance(24 * HOUR);
      expect(send(rt, OWNER)).toBe(99);
    } finally {
      await rt.stop();
    }
  });

  test('1,500 a day for a Google Workspace account', async () => {
    const rt = fixtureWithScopes(['script.send_mail'], { quotas: 'workspace' });
    try {
      expect(rt.quotaUsage().emailRecipients.limit).toBe(1_500);
      expect(send(rt, OWNER)).toBe(1_499);
    } finally {
      await rt.stop();
    }
  });
});
