/**
 * MailApp (developers.google.com/apps-script/reference/mail/mail-app): sendEmail in its forms and
 * getRemainingDailyQuota, as strict as Google:
 *
 * - Scope: every method needs https://www.googleapis.com/auth/script.send_mail (scopes.ts); without
 *   it Google's "You do not have permission to call MailApp.sendEmail. Required permissions: …".
 * - Auth mode: MailApp needs authorisation, so it is refused in AuthMode NONE, LIMITED and custom
 *   functions (permissions.ts); an installable time-driven trigger runs in FULL (add-on authorisation
 *   lifecycle: "installable triggers … AuthMode.FULL"), where it works.
 * - Daily quota: "Email recipients per day" of the quotas page (100 consumer, 1,500 Workspace), per
 *   user, counted per recipient (to + cc + bcc); a message that would pass it is not sent and fails
 *   with Google's "Service invoked too many times for one day: email." (quotas.ts).
 * - Addresses: a recipient that is not an address fails with "Invalid email: <it>" (as public logs of
 *   Google's exception show it; the exact syntax Google accepts is chosen: local@domain.tld).
 *
 * Nothing leaves the machine: each sent message lands in the runtime's `outbox`, which tests read.
 */
import type { RuntimeState } from './execution';
import { QUOTA_MESSAGES, type QuotaMeter } from './quotas';
import { requireService } from './permissions';
import { gasError, isPlainObject, signatureError } from './realm';

/** One message MailApp sent (what a test reads). */
export interface SentMail {
  /** The sending user (the execution's user: the effective user of an add-on). */
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  /** The plain-text body. */
  body: string;
  /** The HTML body, when the script gave one (null: the message is plain text only). */
  htmlBody: string | null;
  name: string | null;
  replyTo: string | null;
  noReply: boolean;
  /** Virtual ms it was sent. */
  at: number;
}

const ADDRESS = /^[^\s@,;<>"]+@[^\s@,;<>"]+\.[^\s@,;<>".]+$/;

function list(v: unknown): string[] {
  if (v === undefined || v === null || v === '') return [];
  return String(v)
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

export function createMailApp(state: RuntimeState, opts: { quota: QuotaMeter | null; outbox: SentMail[] }) {
  const use = (method: string) => requireService(state, 'MailApp', method);
  const send = (m: Record<string, unknown>): void => {
    const e = state.exec();
    const to = list(m.to);
    const cc = list(m.cc);
    const bcc = list(m.bcc);
    for (const a of [...to, ...cc, ...bcc]) if (!ADDRESS.test(a)) throw gasError(state, 'Invalid email: ' + a);
    if (!to.length && !cc.length && !bcc.length) throw gasError(state, 'Invalid argument: recipient');
    const subject = m.subject === undefined || m.subject === null ? '' : String(m.subject);
    const n = to.length + cc.length + bcc.length;
    if (opts.quota && !opts.quota.tryUse(e.user, 'emailRecipients', n)) throw gasError(state, QUOTA_MESSAGES.emailRecipients);
    opts.outbox.push({
      from: e.user,
      to,
      cc,
      bcc,
      subject,
      body: m.body === undefined || m.body === null ? '' : String(m.body),
      htmlBody: m.htmlBody === undefined || m.htmlBody === null ? null : String(m.htmlBody),
      name: m.name === undefined ? null : String(m.name),
      replyTo: m.replyTo === undefined ? null : String(m.replyTo),
      noReply: m.noReply === true,
      at: state.clock.now(),
    });
  };
  return {
    /**
     * sendEmail(message) | sendEmail(recipient, subject, body) | sendEmail(recipient, subject, body, options)
     * (sendEmail(to, replyTo, subject, body) is deprecated and not offered).
     */
    sendEmail(...args: unknown[]): void {
      use('sendEmail');
      if (args.length === 1 && isPlainObject(args[0])) return send(args[0] as Record<string, unknown>);
      if (args.length === 3 || (args.length === 4 && isPlainObject(args[3]))) {
        const [to, subject, body, options] = args;
        return send({ ...((options as Record<string, unknown>) ?? {}), to, subject, body });
      }
      throw signatureError(state, 'MailApp.sendEmail', args);
    },
    /** Recipients the user may still send to today (never below 0 here). */
    getRemainingDailyQuota(): number {
      use('getRemainingDailyQuota');
      if (!opts.quota) return Infinity;
      return opts.quota.remaining(state.exec().user, 'emailRecipients');
    },
  };
}
