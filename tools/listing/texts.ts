/**
 * The listing's words: the name, the short and detailed descriptions, and the feature list, which is
 * README.md's "Features" list (read from it, so the two never differ).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ListingText } from './requirements';

const ROOT = join(__dirname, '..', '..');

export const NAME = 'Product Sourcing Scan for Sheets';

export const SHORT =
  'Scan supplier price lists from Google Sheets: Amazon price, fees, profit, margin and ROI per product, result tabs, lists and purchase orders.';

/** README's "## Features" bullets, without the leading "- ". */
export function readmeFeatures(readme = readFileSync(join(ROOT, 'README.md'), 'utf8')): string[] {
  const at = readme.indexOf('\n## Features\n');
  if (at < 0) throw new Error('README.md has no "## Features" section');
  const section = readme.slice(at + 1).split(/\n## /)[0];
  const items = section
    .split('\n')
    .filter((l) => l.startsWith('- '))
    .map((l) => l.slice(2).trim());
  if (!items.length) throw new Error('README.md "Features" lists nothing');
  return items;
}

export function listingText(features: readonly string[]): ListingText & { features: string[] } {
  const detailed = [
    'For online-arbitrage and wholesale sellers who keep supplier price lists (UPC, EAN or ASIN, and cost) in spreadsheets.',
    'The add-on sends a price list to your Product Sourcing Scan Service account and brings back, per product, the marketplace price, fees, profit, margin and ROI, in Google Sheets.',
    '',
    'What it does:',
    ...features.map((f) => `• ${f}`),
    '',
    'You need a Product Sourcing Scan Service account and its API key (Integrations > API Access). Scans are run and charged by the Scan Service; the add-on says so before it sends one.',
    'Your API key is kept only in your own Google user properties, never in the spreadsheet. Nothing is stored on our servers: see the privacy policy.',
  ].join('\n');
  return { name: NAME, short: SHORT, detailed, features: [...features] };
}
