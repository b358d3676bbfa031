/**
 * The support page: the problems a seller can fix without help, each with the message the add-on
 * shows for it. The messages are not copied: they are made here by the add-on's own message code
 * (src/api/problems.ts, src/store/settings.ts, src/app/quota-errors.ts) from a sample of the
 * situation, so the page changes when a message does.
 */
import { classifyException, classifyResponse } from '../../src/api/problems';
import { quotaErrorMessage } from '../../src/app/quota-errors';
import { noKeyProblem } from '../../src/store/settings';
import { esc, page, table } from './html';

const NOW = Date.UTC(2026, 0, 5, 12);
const ctx = { nowMs: NOW, apiKey: 'sample-key-000000' };

/** The message the add-on shows for an HTTP answer of the Scan Service. */
function answered(status: number, headers: Record<string, string> = {}, subject?: string): string {
  const p = classifyResponse(status, headers, '', { ...ctx, subject });
  if (!p) throw new Error(`status ${status} is not a problem`);
  return p.message;
}
/** The message the add-on shows when UrlFetchApp throws this (Google's wording). */
const thrown = (googleMessage: string) => classifyException(new Error(googleMessage), ctx.apiKey).message;

export interface SupportEntry {
  problem: string;
  message: string;
  fix: string;
}

export function supportEntries(address: string): SupportEntry[] {
  return [
    {
      problem: 'No API key saved yet',
      message: noKeyProblem().message,
      fix: 'Paste your key in Settings; "Test connection" says whether it works.',
    },
    {
      problem: 'The key is wrong or was revoked',
      message: answered(401),
      fix: 'Copy the key again from Integrations > API Access and save it in Settings.',
    },
    {
      problem: 'Your account has no access to a marketplace',
      message: answered(403, {}, 'marketplace US'),
      fix: 'Pick a marketplace your plan includes in Settings, or ask the Scan Service to add it.',
    },
    {
      problem: 'Too many requests at once',
      message: answered(429, { 'retry-after': '120' }),
      fix: 'Wait the time it gives; nothing was lost or charged.',
    },
    { problem: 'The Scan Service is down', message: answered(503), fix: 'Try again later; a scan that was not sent is not charged.' },
    {
      problem: 'The service address moved',
      message: answered(301, { location: `${address}/` }),
      fix: 'Enter the final https:// address in Settings.',
    },
    {
      problem: 'The service address is not one the add-on may call',
      message: thrown(
        'Exception: Request to https://elsewhere.example.com/api/v3/scans failed because the URL has not been whitelisted in the script manifest.',
      ),
      fix: `Set the service address in Settings to ${address}.`,
    },
    {
      problem: 'The service cannot be reached',
      message: thrown('Exception: DNS error: https://scan-service.invalid/api/v3/scans'),
      fix: 'Check the address in Settings and your connection.',
    },
    {
      problem: 'The service took too long',
      message: thrown('Timeout: https://scan-service.example.com/api/v3/scans'),
      fix: 'Try again later; for a scan that was being sent, look in Scans before sending it again.',
    },
    {
      problem: 'Google’s daily quota for web requests is used up',
      message: quotaErrorMessage('urlfetch'),
      fix: 'Wait for Google’s daily reset; other add-ons and scripts of your account share the quota.',
    },
    {
      problem: 'Google’s daily quota for the add-on’s storage is used up',
      message: quotaErrorMessage('properties'),
      fix: 'Wait for Google’s daily reset.',
    },
    {
      problem: 'Google’s daily time for the hourly check is used up',
      message: quotaErrorMessage('runtime'),
      fix: 'Wait for Google’s daily reset; finished scans are imported when you open the sidebar.',
    },
  ];
}

export function supportHtml(updated: string, address: string, contact: string | null): string {
  const rows = supportEntries(address).map((e) => [esc(e.problem), `<q>${esc(e.message)}</q>`, esc(e.fix)]);
  const body = `
<p>Most problems say what to do in the message itself. These are the ones you can fix yourself, with the exact message the add-on shows.</p>
${table(['Problem', 'What the add-on says', 'What to do'], rows)}
<h2>Which version you have</h2>
<p>Open the sidebar's Help (Extensions > Product Sourcing Scan > Help): its last line gives the version. Please quote it when you write to us.</p>
<h2>Contact</h2>
<p>${contact ? `Write to <a href="mailto:${esc(contact)}">${esc(contact)}</a>.` : 'Write to the support address given in the add-on’s Google Workspace Marketplace listing.'} Never send your API key: we never ask for it.</p>
<p>See also the <a href="privacy.html">privacy policy</a> and the <a href="terms.html">terms of service</a>.</p>`;
  return page('Support', body, updated);
}
