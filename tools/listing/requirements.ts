/**
 * Google's published requirements for a Google Workspace Marketplace listing, each with the page it
 * comes from, and the check of the kit in marketplace/ against them (`npm run listing` runs it last
 * and fails on a miss; test/build/listing.test.ts runs it on the committed kit).
 *
 * Verification: this session had no web access. The text limits were read in a stored copy of the
 * page "Google Workspace Marketplace: Create a store listing" (the search corpus, same address); the
 * graphic sizes and the links are encoded from that page's "Graphic assets" and "Support links"
 * sections as known before this session, NOT re-verified: check them on the page before submitting.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const CREATE_LISTING = {
  title: 'Google Workspace Marketplace: Create a store listing',
  url: 'https://developers.google.com/workspace/marketplace/create-listing',
};
const OLD_SDK = {
  title: 'G Suite Marketplace SDK: App Configuration (archived)',
  url: 'https://developers.google.com/gsuite/marketplace/archive/sdk',
};

export type Verified = 'read this session (stored copy)' | 'not re-verified this session';

export interface Requirement {
  what: string;
  rule: string;
  page: { title: string; url: string };
  verified: Verified;
}

export const ICON_SIZES = [32, 48, 96, 128] as const;
export const BANNER = { width: 220, height: 140 };
export const SCREENSHOT = { width: 1280, height: 800, min: 1, max: 5 };
export const TEXT_LIMITS = { name: 50, short: 200, detailedUnder: 16_000 };

export const REQUIREMENTS: Requirement[] = [
  {
    what: 'Application name',
    rule: `at most ${TEXT_LIMITS.name} characters, without "Google"`,
    page: CREATE_LISTING,
    verified: 'read this session (stored copy)',
  },
  {
    what: 'Short description',
    rule: `at most ${TEXT_LIMITS.short} characters`,
    page: CREATE_LISTING,
    verified: 'read this session (stored copy)',
  },
  {
    what: 'Detailed description',
    rule: `under ${TEXT_LIMITS.detailedUnder.toLocaleString('en-US')} characters`,
    page: CREATE_LISTING,
    verified: 'read this session (stored copy)',
  },
  {
    what: 'Application icons',
    rule: 'PNG, square: 128 x 128 and 32 x 32 pixels',
    page: CREATE_LISTING,
    verified: 'not re-verified this session',
  },
  {
    what: 'Application icons (older sizes)',
    rule: 'PNG, square: 96 x 96 and 48 x 48 pixels',
    page: OLD_SDK,
    verified: 'not re-verified this session',
  },
  {
    what: 'Application card banner',
    rule: `PNG, ${BANNER.width} x ${BANNER.height} pixels`,
    page: CREATE_LISTING,
    verified: 'not re-verified this session',
  },
  {
    what: 'Screenshots',
    rule: `PNG, ${SCREENSHOT.width} x ${SCREENSHOT.height} pixels, ${SCREENSHOT.min} to ${SCREENSHOT.max}`,
    page: CREATE_LISTING,
    verified: 'not re-verified this session',
  },
  {
    what: 'Terms of service, privacy policy, support',
    rule: 'a public address for each (the kit holds the pages to publish)',
    page: CREATE_LISTING,
    verified: 'not re-verified this session',
  },
];

/** Width and height from a PNG's IHDR chunk (bytes 16-23), or null when the file is not a PNG. */
export function pngSize(file: string): { width: number; height: number } | null {
  const b = readFileSync(file);
  if (b.length < 24 || b.toString('latin1', 1, 4) !== 'PNG' || b.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

export interface ListingText {
  name: string;
  short: string;
  detailed: string;
}

/** The kit's files as `npm run listing` names them. */
export const KIT = {
  icon: (n: number) => `icons/icon-${n}.png`,
  banner: 'icons/card-banner.png',
  screenshotsDir: 'screenshots',
  text: 'listing.json',
  pages: ['privacy.html', 'terms.html', 'support.html'],
};

/** Every miss of the kit in `dir` against the requirements above, as sentences naming the file and the page ([] when all is met). */
export function checkKit(dir: string, screenshots: readonly string[]): string[] {
  const misses: string[] = [];
  const size = (rel: string, w: number, h: number, page = CREATE_LISTING) => {
    let s: { width: number; height: number } | null = null;
    try {
      s = pngSize(join(dir, rel));
    } catch {
      misses.push(`${rel}: missing (${page.title})`);
      return;
    }
    if (!s || s.width !== w || s.height !== h)
      misses.push(`${rel}: ${s ? `${s.width} x ${s.height}` : 'not a PNG'}, needs ${w} x ${h} (${page.title}, ${page.url})`);
  };
  for (const n of ICON_SIZES) size(KIT.icon(n), n, n, n === 32 || n === 128 ? CREATE_LISTING : OLD_SDK);
  size(KIT.banner, BANNER.width, BANNER.height);
  if (screenshots.length < SCREENSHOT.min || screenshots.length > SCREENSHOT.max)
    misses.push(
      `${KIT.screenshotsDir}/: ${screenshots.length} screenshots, needs ${SCREENSHOT.min} to ${SCREENSHOT.max} (${CREATE_LISTING.title})`,
    );
  for (const s of screenshots) size(`${KIT.screenshotsDir}/${s}`, SCREENSHOT.width, SCREENSHOT.height);
  const text = JSON.parse(readFileSync(join(dir, KIT.text), 'utf8')) as ListingText;
  const len = (s: string) => [...s].length;
  if (len(text.name) > TEXT_LIMITS.name || /google/i.test(text.name))
    misses.push(`${KIT.text} name: ${len(text.name)} characters or says "Google" (${CREATE_LISTING.title})`);
  if (len(text.short) > TEXT_LIMITS.short)
    misses.push(`${KIT.text} short: ${len(text.short)} characters, at most ${TEXT_LIMITS.short} (${CREATE_LISTING.title})`);
  if (len(text.detailed) >= TEXT_LIMITS.detailedUnder)
    misses.push(
      `${KIT.text} detailed: ${len(text.detailed)} characters, needs under ${TEXT_LIMITS.detailedUnder} (${CREATE_LISTING.title})`,
    );
  for (const p of KIT.pages) {
    try {
      readFileSync(join(dir, p));
    } catch {
      misses.push(`${p}: missing (${CREATE_LISTING.title}: a public page for each link)`);
    }
  }
  return misses;
}
