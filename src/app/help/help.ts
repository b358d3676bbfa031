/**
 * The sidebar's Help view, sent by getHelp so that its words cost the page nothing (the page is
 * served on every open and its open time is measured by bench/sidebar-open.ts). No service call, no
 * document: Help opens in any spreadsheet, with or without a key.
 */
import type { HelpView } from './protocol';
import { releasedVersion } from './version';

const STEPS: Array<[string, string]> = [
  ['Settings', 'Paste your API key (Integrations > API Access) and pick your marketplace. "Test connection" says what works.'],
  [
    'New scan',
    'Open the price list, or select its rows, and choose what each column holds. Preview lists the rows that go, skip or were repaired; Send starts the scan.',
  ],
  [
    'While it runs',
    'The progress shows here. You may close the sidebar: the scan continues, and New scan finds it again. Finished scans are also imported by an hourly check.',
  ],
  [
    'Results',
    'Each scan gets its own tab, with errors in a second tab. Filters and sort (in Scans) write the rows they keep to a tab of their own.',
  ],
  ['Scans', 'Past scans: import again, download (CSV, XLSX, JSON), export, cancel or delete.'],
  [
    'Negotiate',
    'Open a result tab and choose Extensions > Product Sourcing Scan > Negotiate tab from this result tab. A new tab lists the items short of your target ROI that would reach it at a small discount, with the cost to ask the supplier for; type what they agree to in "Agreed cost".',
  ],
  [
    'Purchase orders',
    'Select the rows to buy in a result tab (or open a Negotiate tab with agreed costs) and choose Extensions > Product Sourcing Scan > Purchase order from selected rows. Change Quantity in the new tab: cost, cash, profit and days to sell follow. "Export this tab as CSV to Drive" (same menu) makes the file for the supplier.',
  ],
  [
    'Lists',
    'Tags, notes, brand and ASIN blocklists, listing matches and multipack corrections, kept in step with your Scan Service account. In the Lists tab here: Set up lists, then Sync now (also Extensions > Product Sourcing Scan > Sync lists now). In a result tab, select rows and use the menu’s "Selected rows" items to block a brand, tag or note them; "Undo last row action" takes the last one back.',
  ],
  [
    'Schedules',
    'To scan a supplier’s list again every week: when its scan is done, open "Scan this list again" on its card in New scan, or Settings > Remembered suppliers. Each run is a new scan, paid like any other, and what changed since the last one gets a tab of its own.',
  ],
  [
    'Webhooks',
    'Settings > Manage webhooks: the Scan Service notifies an HTTPS address of yours when a scan finishes (a chat, an automation, your server). Each webhook’s secret is shown once.',
  ],
  [
    'Formulas',
    '=ASIN_FROM_UPC(A2:A500) and the other identifier formulas convert whole columns; the Convert tab (or the add-on menu’s Convert selected column) writes plain values for very long ones.',
  ],
];

/** Sidebar: the Help view's text, ending with the version (the number a seller quotes to support). */
export function getHelp(): HelpView {
  const v = releasedVersion();
  const version = v ? `Product Sourcing Scan ${v}.` : 'A development build, not a numbered release.';
  return { steps: [...STEPS, ['Version', version] as [string, string]].map(([title, text]) => ({ title, text })) };
}
