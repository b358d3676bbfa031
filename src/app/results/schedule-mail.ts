/**
 * The opt-in email after a scheduled run (src/app/results/schedule-run.ts): what the run came to,
 * the Changes summary and the top newly profitable products, the next run, the cost, how to pause.
 * PLAIN TEXT only (supplier and service text stays text: a title "=HYPERLINK(…)" or "<script>" is
 * shown as written, never rendered), sent only to the schedule's owner (mailToSelf in src/apps-script.ts).
 * A mail that cannot be sent never fails the run: the run's status says so instead.
 */
import { CHANGE_FIGURES, changesColumns } from '../../domain/result-tabs/changes';
import { ROI_NOTE } from '../../domain/result-tabs/result-columns';
import { activeSpreadsheet, mailToSelf, type MailRefusal } from '../../apps-script';
import { consentNeedText } from '../../domain/consent/consent';
import { SCHEDULE_COST } from '../scan/schedule';

/** Products listed in the email (the tab has them all). */
export const MAIL_TOP = 5;

export interface RunMail {
  /** The supplier's sheet. */
  sheetName: string;
  /** What happened, one line ("Scan 123 imported and compared on …", "The scan of … was skipped: …"). */
  what: string;
  /** The Changes summary line, when a Changes tab was written. */
  summary?: string;
  /** The Changes tab, when written. */
  changesTab?: string;
  /** "Next run: Mon Dec 21, 06:00.", that the schedule is paused, or '' (already in `what`). */
  next: string;
}

/** A newly profitable product of a Changes tab, as its cells show it (display values: the tab's formats). */
export interface TopItem {
  asin: string;
  title: string;
  profit: string;
  roi: string;
}

const PROFIT_NOTE = CHANGE_FIGURES.find((f) => f.key === 'profit')!.note;

/** The first MAIL_TOP "Newly profitable" rows of a Changes tab (they come first in its order). */
export function topNewlyProfitable(tabName: string): TopItem[] {
  const sheet = activeSpreadsheet().getSheetByName(tabName);
  if (!sheet || sheet.getLastRow() < 2) return [];
  const headers = changesColumns().map((c) => c.header);
  const n = Math.min(MAIL_TOP, sheet.getLastRow() - 1);
  const cells = sheet.getRange(2, 1, n, headers.length).getDisplayValues();
  const at = (h: string) => headers.indexOf(h);
  return cells
    .filter((r) => r[at('Change')] === 'Newly profitable')
    .map((r) => ({ asin: r[at('ASIN')], title: r[at('Title')], profit: r[at('Profit after')], roi: r[at('ROI after')] }));
}

/** Subject and plain-text body. Pure. */
export function runMailText(m: RunMail, spreadsheetName: string, top: readonly TopItem[]): { subject: string; body: string } {
  const subject = (m.summary ? 'Changes in "' + m.sheetName + '": ' + m.summary : 'Scheduled scan of "' + m.sheetName + '"').slice(0, 200);
  const lines = ['Scheduled scan of the sheet "' + m.sheetName + '" in the spreadsheet "' + spreadsheetName + '".', '', m.what];
  if (m.summary) {
    lines.push('', 'Changes against the previous scan' + (m.changesTab ? ' (tab "' + m.changesTab + '")' : '') + ':', m.summary + '.');
    if (top.length) {
      lines.push('', 'Newly profitable, highest profit first:');
      for (const t of top) lines.push('- ' + t.asin + ' ' + t.title + ': profit ' + t.profit + ', ROI ' + t.roi);
      lines.push(PROFIT_NOTE + ' ' + ROI_NOTE.split(':')[0] + '.');
    }
  }
  lines.push(
    '',
    ...(m.next ? [m.next] : []),
    SCHEDULE_COST,
    'To pause or stop it: open the spreadsheet, Extensions > this add-on > Settings > Remembered suppliers, then Pause or Remove.',
    '',
    'You get this email because you ticked "Email me a summary after each run" for this schedule. Only you get it.',
  );
  return { subject, body: lines.join('\n') };
}

/** What the run's status says when the email was not sent. */
export function notSentText(why: MailRefusal): string {
  return why === 'quota'
    ? " The summary email was not sent: Google's daily email quota for your account is used up (the summary is here in Scans)."
    : why === 'no-address'
      ? ' The summary email was not sent: Google did not give this add-on your email address (the summary is here in Scans).'
      : why === 'consent'
        ? ' The summary email was not sent: ' +
          consentNeedText('mail') +
          ' Allow it with the link at the top of the sidebar (the summary is here in Scans).'
        : ' The summary email was not sent (the summary is here in Scans).';
}

/** Sends the run's email to the schedule's owner; the status note to add when it was not sent, else ''. */
export function sendRunMail(m: RunMail): string {
  let top: TopItem[] = [];
  let name = '';
  try {
    name = activeSpreadsheet().getName();
    if (m.changesTab) top = topNewlyProfitable(m.changesTab);
  } catch (_e) {
    // The list is a nicety: the summary is sent without it.
  }
  const { subject, body } = runMailText(m, name, top);
  const why = mailToSelf(subject, body);
  return why ? notSentText(why) : '';
}
