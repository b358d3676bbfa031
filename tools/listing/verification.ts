/**
 * docs/oauth-verification.md: the notes for Google's OAuth verification reviewers. Per scope: the
 * feature (tools/build/scopes.cjs), the calls in the BUILT bundle that need it (derived from
 * dist/Code.js as test/build/scopes.test.ts derives them, tools/build/scope-calls.ts), why no
 * narrower scope serves, and how to see the feature work in the playground and in Google.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scopeRule } from '../../emulator/gas/scopes';
import { calledMethods, neededScopes } from '../build/scope-calls';
import { SCOPES, shortScope } from './scopes-table';

interface Notes {
  narrower: string;
  playground: string[];
  google: string[];
}

const NOTES: Record<string, Notes> = {
  'spreadsheets.currentonly': {
    narrower:
      'It is already the narrowest spreadsheet scope: only the spreadsheet the add-on is used in. The add-on never opens another file by id (that would need `spreadsheets`); the hourly trigger does without it.',
    playground: [
      '`npm run playground`, select A1:G21 of the sample price list',
      'Extensions > Product Sourcing Scan > Scan this sheet, Preview, Send',
      'the result tab appears; the price list is unchanged',
    ],
    google: [
      'Open a spreadsheet with a price list (UPC, cost)',
      'Extensions > Product Sourcing Scan > Scan this sheet, then Send',
      'a result tab is written into the same spreadsheet',
    ],
  },
  'script.external_request': {
    narrower:
      'Apps Script has no narrower scope for UrlFetchApp. The manifest’s urlFetchWhitelist limits every call to the Scan Service’s address.',
    playground: [
      'Settings > Test connection (the local Scan Service answers)',
      'any scan: its upload and progress are requests to the service',
    ],
    google: ['Settings: paste a Scan Service API key, Test connection', 'the sidebar says whether the key and the address work'],
  },
  'script.container.ui': {
    narrower: 'The only scope for menus, sidebars and dialogs in the editor (`getUi()`); no narrower one exists.',
    playground: ['the Extensions menu lists the add-on’s items', 'Settings opens the sidebar; a row action asks in a dialog'],
    google: ['Extensions > Product Sourcing Scan shows the menu', 'Settings opens the sidebar'],
  },
  'script.scriptapp': {
    narrower:
      'The only scope for installable triggers (`ScriptApp.newTrigger`). One hourly trigger per user and document, created when a scan starts.',
    playground: ['start a scan, close the sidebar', '“Run the hourly trigger now” on the virtual clock: the finished scan is imported'],
    google: [
      'Start a scan and close the spreadsheet',
      'within the hour the result tab is written (Google runs installable triggers only for a published add-on, not a test deployment)',
    ],
  },
  'userinfo.email': {
    narrower:
      'The email is read only to compare with the spreadsheet owner’s (`Session.getActiveUser().getEmail()`) and to address the opt-in summary email to the user themselves. Users are told apart by `Session.getTemporaryActiveUserKey()`, which needs no scope. No narrower scope gives the email.',
    playground: [
      'Settings: “Formulas in this spreadsheet run on my key” is offered to the owner',
      'type =ASIN_FROM_UPC(B2:B4): the cells fill in',
    ],
    google: [
      'As the spreadsheet’s owner, Settings shows “Formulas in this spreadsheet run on my key”',
      'as another editor it says only the owner can turn it on',
    ],
  },
  'script.send_mail': {
    narrower:
      'The opt-in summary goes only to the user’s own address, as plain text (`MailApp.sendEmail`). `gmail.send` would be broader in effect (the Gmail API); MailApp needs this scope and no other.',
    playground: [
      'New scan, finished card: “Scan this list again”, weekly, tick the summary email',
      'run the hourly trigger at the slot: the local runtime records the email (sent to the user only)',
    ],
    google: ['Set a schedule with the summary email ticked', 'after the scheduled run the user receives one plain-text email'],
  },
  'drive.file': {
    narrower:
      'Save to Drive creates a new file through the Drive API (advanced Drive service, `Drive.Files.create`), which honours `drive.file`: only files the add-on creates. `DriveApp` would need the full, restricted `drive` scope.',
    playground: [
      'Scans (history) > a finished scan > download as CSV to Drive',
      'the sidebar links the new file (the local runtime keeps it)',
    ],
    google: [
      'Scans (history) > a finished scan > download as CSV to Drive',
      'a new file “<scan name> (scan <id>).csv” appears in My Drive',
    ],
  },
};

export function verificationMarkdown(codeJs: string): string {
  const byScope = neededScopes(calledMethods(readFileSync(codeJs, 'utf8')));
  const parts = [
    '# OAuth verification notes',
    '',
    'For Google’s reviewers of the add-on’s OAuth consent screen. Written by `npm run listing` from',
    '`tools/build/scopes.cjs` (the scopes and features), the built bundle `dist/Code.js` (the calls, derived',
    'as `test/build/scopes.test.ts` derives them) and `tools/listing/verification.ts` (the reasons and steps).',
    '',
    'How to see the features without Google: `npm install`, `npm run playground` (a local spreadsheet page on',
    '127.0.0.1 with the built add-on, a local Apps Script runtime and a local Scan Service). In Google: after a',
    'private (domain or unlisted) Marketplace publish, install the add-on from its listing, open a spreadsheet',
    'with a supplier price list, and use Extensions > Product Sourcing Scan. A Scan Service API key is needed.',
    '',
  ];
  for (const s of SCOPES) {
    const short = shortScope(s.scope);
    const notes = NOTES[short];
    if (!notes) throw new Error(`tools/listing/verification.ts: no notes for the scope ${short}`);
    const calls = byScope.get(s.scope) ?? [];
    parts.push(
      `## \`${s.scope}\``,
      '',
      `**Feature:** ${s.feature}.`,
      '',
      `**Consent screen:** “${s.consent}”.`,
      '',
      `**Calls in the bundle that need it** (${calls.length}):`,
      '',
      ...(calls.length
        ? calls.map((m) => `- \`${m}\` ([reference](${scopeRule(m)!.page}))`)
        : ['- none found: the scope would be needless (the scope test fails then)']),
      '',
      `**Why no narrower scope serves:** ${notes.narrower}`,
      '',
      '**See it work in the playground:**',
      '',
      ...notes.playground.map((t, i) => `${i + 1}. ${t}`),
      '',
      '**See it work in Google (after a private publish):**',
      '',
      ...notes.google.map((t, i) => `${i + 1}. ${t}`),
      '',
    );
  }
  return parts.join('\n');
}

export const VERIFICATION_DOC = join('docs', 'oauth-verification.md');
