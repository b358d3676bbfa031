/**
 * The privacy policy and the terms of service. What is stored is written once here per kind of
 * storage name of src/store (tools/listing/store-kinds.ts); test/build/listing.test.ts fails when a
 * kind has no line, or a line names a kind src/store no longer has.
 */
import { esc, page, table } from './html';

type Store = 'user properties' | 'document properties' | 'script properties' | 'user cache' | 'document cache' | 'hidden tab';

export interface StoredKind {
  /** The storage name as src/store spells it (a prefix ends in `.` or `_`). */
  name: string;
  /** How the policy writes the name: the prefix with what follows it. */
  shown: string;
  store: Store;
  holds: string;
  kept: string;
}

const PER_SHEET = '<spreadsheet id>';
const PER_SCAN = '<scan id>';
const PER_ACCOUNT = '<account tag>';

export const STORED: StoredKind[] = [
  {
    name: 'scan.settings',
    shown: 'scan.settings',
    store: 'user properties',
    holds: 'Your Scan Service API key, the service address and your default marketplace.',
    kept: 'Until you replace them in Settings. This is the only place the key is kept.',
  },
  {
    name: 'scan.formulaShare.',
    shown: `scan.formulaShare.${PER_SHEET}`,
    store: 'user properties',
    holds:
      'A copy of the owner’s key, address and marketplace for the identifier formulas of one spreadsheet, only when its owner turns on “Formulas in this spreadsheet run on my key”.',
    kept: 'Until the owner turns it off, or changes key or address.',
  },
  {
    name: 'scan.columnJob.',
    shown: `scan.columnJob.${PER_SHEET}`,
    store: 'user properties',
    holds: 'Where an unfinished “Convert selected column” stopped (ranges and counts).',
    kept: 'Until that conversion finishes.',
  },
  {
    name: 'scan.quotaStop',
    shown: 'scan.quotaStop',
    store: 'user properties',
    holds: 'That one of Google’s daily quotas stopped your hourly check, and until when.',
    kept: 'Until Google’s quota day is over.',
  },
  {
    name: 'scan.triggerDay',
    shown: 'scan.triggerDay',
    store: 'user properties',
    holds: 'How long your hourly check ran in the current 24 hours (Google limits it).',
    kept: 'Replaced every 24 hours.',
  },
  {
    name: 'scan.userId',
    shown: 'scan.userId',
    store: 'user properties',
    holds: 'A random id made once for you, which marks your own scans and records in a shared spreadsheet (no name or email).',
    kept: 'As long as the add-on is installed for you.',
  },
  {
    name: 'scan.triggerReauth',
    shown: 'scan.triggerReauth',
    store: 'user properties',
    holds: 'That the hourly check found Google needs you to give the add-on a permission again, with the link to do it.',
    kept: 'Until you give it.',
  },
  {
    name: 'scan.triggerRun.',
    shown: 'scan.triggerRun.<spreadsheet id>',
    store: 'user properties',
    holds:
      'Per spreadsheet: whether the last hourly check had the spreadsheet open to it, so its schedules say when a run needs the sidebar.',
    kept: 'Replaced at each hourly check.',
  },
  {
    name: 'scan.triggerNoDoc',
    shown: 'scan.triggerNoDoc',
    store: 'user properties',
    holds: 'That the hourly check last ran without the spreadsheet open to it, and how often.',
    kept: 'Until the next time you open the sidebar.',
  },
  {
    name: 'scan.suppliers.',
    shown: `scan.suppliers.${PER_SHEET}`,
    store: 'user properties',
    holds:
      'Supplier memory: for each price list you scanned, its column names, the role you gave each column, the options and the sheet range (not the rows).',
    kept: 'Until you forget a supplier in Settings > Remembered suppliers; at most 12 per spreadsheet and 24 spreadsheets, the oldest forgotten first.',
  },
  {
    name: 'scan.schedules.',
    shown: `scan.schedules.${PER_SHEET}`,
    store: 'user properties',
    holds:
      'Your re-scan schedules: when each supplier list is scanned again, the last result, and whether you asked for the summary email.',
    kept: 'Until you remove the schedule.',
  },
  {
    name: 'scan.lists.auto.',
    shown: `scan.lists.auto.${PER_SHEET}`,
    store: 'user properties',
    holds: 'Whether you turned on the automatic sync of the lists.',
    kept: 'Until you turn it off.',
  },
  {
    name: 'scan.running',
    shown: 'scan.running',
    store: 'document properties',
    holds:
      'The ids of scans started from the spreadsheet and not imported yet, each with a tag of its starter (12 hex digits of a hash of the email; the email is not stored).',
    kept: 'Until the scan is imported; at most 50.',
  },
  {
    name: 'scan.autoimport',
    shown: 'scan.autoimport',
    store: 'document properties',
    holds: 'What the hourly import tried per scan (attempts, last message).',
    kept: 'Until the scan is imported.',
  },
  {
    name: 'scan.import.',
    shown: `scan.import.${PER_SCAN}`,
    store: 'document properties',
    holds: 'Where an unfinished import of a scan stopped.',
    kept: 'Until that import finishes.',
  },
  {
    name: 'scan.notSent.',
    shown: `scan.notSent.${PER_SCAN}`,
    store: 'document properties',
    holds: 'Rows of your price list that were not sent (sheet row, reason, identifier), for the scan’s errors tab.',
    kept: 'Until the scan is imported; the newest 100 scans at most.',
  },
  {
    name: 'scan.decide.',
    shown: `scan.decide.${PER_SCAN}`,
    store: 'document properties',
    holds: 'The decision options you chose for a scan (months of cover, target ROI, largest discount).',
    kept: 'Until you delete the scan in Scans.',
  },
  {
    name: 'scan.tab.',
    shown: `scan.tab.${PER_SCAN}`,
    store: 'document properties',
    holds: 'Which tabs hold a scan’s results and errors.',
    kept: 'Until you delete the scan in Scans.',
  },
  {
    name: 'scan.compare',
    shown: 'scan.compare',
    store: 'document properties',
    holds: 'Where an unfinished “Compare with an earlier scan” stopped (scan ids, pages read).',
    kept: 'Until the Changes tab is complete.',
  },
  {
    name: 'scan.lists.status.',
    shown: `scan.lists.status.${PER_ACCOUNT}`,
    store: 'document properties',
    holds: 'The last sync result of each list, per Scan Service account (the account is a 12-digit hash tag, never the key).',
    kept: 'Replaced by each sync.',
  },
  {
    name: 'scan.lists.run.',
    shown: `scan.lists.run.${PER_ACCOUNT}`,
    store: 'document properties',
    holds: 'Where an unfinished lists sync stopped.',
    kept: 'Until that sync finishes.',
  },
  {
    name: 'scan.lists.sched.',
    shown: `scan.lists.sched.${PER_ACCOUNT}`,
    store: 'document properties',
    holds: 'When the automatic sync last read each list, and a fingerprint of its table.',
    kept: 'Replaced by each sync.',
  },
  {
    name: 'scan.importTuning',
    shown: 'scan.importTuning',
    store: 'script properties',
    holds: 'A support setting for the import’s pace; absent normally, never your data.',
    kept: 'Only while support sets it.',
  },
  {
    name: 'scan.listsTuning',
    shown: 'scan.listsTuning',
    store: 'script properties',
    holds: 'A support setting for the lists sync’s pace; absent normally, never your data.',
    kept: 'Only while support sets it.',
  },
  {
    name: 'scan.actions.',
    shown: `scan.actions.${PER_SHEET}`,
    store: 'user cache',
    holds: 'Your recent row actions, so that they can be undone.',
    kept: '6 hours at most (Google’s cache).',
  },
  {
    name: 'scan.lists.pace.',
    shown: `scan.lists.pace.${PER_ACCOUNT}`,
    store: 'user cache',
    holds: 'The times of your recent list requests, to stay under the service’s rate limit.',
    kept: '2 minutes.',
  },
  {
    name: 'sc1',
    shown: 'sc1|…',
    store: 'document cache',
    holds: 'Answers of the identifier formulas (identifier to ASIN), so a recalculation does not ask again.',
    kept: '6 hours at most (Google’s cache).',
  },
  {
    name: '_scan_base_',
    shown: `_scan_base_<list>_${PER_ACCOUNT}`,
    store: 'hidden tab',
    holds: 'For each list, what the spreadsheet and the service agreed on at the last sync (the list’s entries).',
    kept: 'In the spreadsheet, until you delete the tab.',
  },
];

const WHERE: Record<Store, string> = {
  'user properties':
    'Your own storage of this add-on at Google (per Google account): no other user, not even an editor of the same spreadsheet, can read it.',
  'document properties':
    'The spreadsheet’s storage of this add-on at Google: shared by its editors through the add-on, never holding the API key.',
  'script properties': 'The add-on’s own storage at Google, the same for every user.',
  'user cache': 'Google’s short-lived cache, per user.',
  'document cache': 'Google’s short-lived cache, per spreadsheet.',
  'hidden tab': 'A hidden tab of the spreadsheet itself.',
};

/** The kinds in `kinds` that the policy page `html` does not name in its table (each row starts with the name in <code>). */
export function unnamedKinds(kinds: readonly string[], html: string): string[] {
  return kinds.filter((k) => !html.includes(`<code>${esc(k)}`));
}

export function privacyHtml(updated: string): string {
  const stores = [...new Set(STORED.map((s) => s.store))];
  const body = `
<h2>In short</h2>
<ul>
<li>The add-on keeps what it needs in Google’s own storage for Apps Script add-ons (user properties, document properties, caches) and in your spreadsheet. <strong>Nothing is stored on our servers</strong>: we run none for the add-on, and it sends us nothing.</li>
<li>Your Scan Service API key is kept only in your user properties. It is never written to cells, document properties, logs or messages, and other editors of a spreadsheet cannot see it.</li>
<li>The add-on sends your price list rows, identifiers and list entries only to the Product Sourcing Scan Service address you set in Settings (and Google lets it call only the addresses it was published with). What the service keeps is governed by your agreement with it.</li>
<li>Records, checkpoints and the supplier memory are kept in document and user properties, each for the time the table below gives.</li>
<li>No advertising, no analytics, no sale or transfer of data. Google user data is used only to provide the add-on’s features and under the Google API Services User Data Policy, including its Limited Use requirements.</li>
</ul>
<h2>What Google information the add-on uses</h2>
<ul>
<li>The spreadsheet the add-on is used in: it reads the price list you scan and writes result tabs, lists and purchase orders there. It opens no other file.</li>
<li>Your email address, only to recognise a spreadsheet’s owner (for “Formulas in this spreadsheet run on my key”) and to send the scheduled re-scan summary to yourself when you ask for it. It is not stored; a scan’s starter is kept only as a 12-digit hash tag.</li>
<li>Google Drive: only the files the add-on creates when you choose Save to Drive.</li>
</ul>
<h2>Where things are kept</h2>
${table(
  ['Store', 'What it is'],
  stores.map((s) => [esc(s), esc(WHERE[s])]),
)}
<h2>Everything the add-on stores, and for how long</h2>
${table(
  ['Name', 'Store', 'What it holds', 'How long'],
  STORED.map((s) => [`<code>${esc(s.shown)}</code>`, esc(s.store), esc(s.holds), esc(s.kept)]),
)}
<h2>Removing your data</h2>
<ul>
<li>Scans, remembered suppliers, schedules, webhooks and the automatic sync each have Remove, Forget or Delete in the sidebar; result and list tabs are yours to delete like any tab.</li>
<li>The add-on has no button that deletes your API key: replace it in Settings, or revoke the key in your Scan Service account (Integrations > API Access), which makes the stored copy useless.</li>
<li>Removing the add-on’s access in your Google Account (Security > Third-party apps with account access) stops it from running for you.</li>
</ul>
<h2>Contact</h2>
<p>See the <a href="support.html">support page</a>.</p>`;
  return page('Privacy policy', body, updated);
}

export function termsHtml(updated: string): string {
  const body = `
<h2>The add-on</h2>
<p>Product Sourcing Scan for Google Sheets connects a spreadsheet to your own Product Sourcing Scan Service account. You need that account and its API key; scans are run and charged by the Scan Service under your agreement with it. A scan, and each scheduled re-scan, is a paid scan at the Scan Service, as the add-on says before it sends one.</p>
<h2>Your data</h2>
<p>Your spreadsheets and what the add-on writes into them are yours. What the add-on stores and for how long is in the <a href="privacy.html">privacy policy</a>.</p>
<h2>Use</h2>
<ul>
<li>Use the add-on only with price lists and accounts you are entitled to use, and within the Scan Service’s and Google’s terms.</li>
<li>Figures (prices, fees, profit, margin, ROI) come from the Scan Service and from the costs in your sheet; each says how it is computed. Check them before you buy: they are estimates, and buying decisions are yours.</li>
</ul>
<h2>No warranty</h2>
<p>The add-on is provided as is, without warranty of any kind. To the extent the law allows, we are not liable for losses from its use, from the Scan Service’s answers, or from Google’s services being unavailable.</p>
<h2>Changes</h2>
<p>Each numbered release is listed in the changelog, and Help in the sidebar shows the version you have. These terms may change with a release; the date above says when they last did.</p>`;
  return page('Terms of service', body, updated);
}
