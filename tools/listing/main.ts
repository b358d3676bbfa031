/**
 * `npm run listing [-- --no-screenshots]`: the Google Workspace Marketplace listing kit in
 * marketplace/, from their sources, then checked against Google's requirements (requirements.ts):
 * - icons/: the icon at 32, 48, 96 and 128 px and the 220 x 140 card banner, rendered from the one
 *   SVG source tools/listing/icon.svg by resvg (@resvg/resvg-js);
 * - screenshots/: five 1280 x 800 screenshots of the playground (screenshots.ts; the build must be
 *   current: the npm script builds first), with the fingerprint of that build (fingerprint.ts:
 *   `npm run release` refuses screenshots of another build). --no-screenshots keeps the ones there;
 * - listing.json and listing.md: name, short and detailed descriptions, the README's feature list;
 * - scopes.md: the scope table (and README.md's copy of it) from tools/build/scopes.cjs;
 * - privacy.html, terms.html, support.html: the static pages to publish at public addresses;
 * - README.md: what each file is, and each requirement with its page and whether it was met;
 * and docs/oauth-verification.md, the reviewers' notes, from the built bundle.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import { recordScreenshotsBuild } from './fingerprint';
import { privacyHtml, termsHtml } from './policy';
import { BANNER, checkKit, ICON_SIZES, KIT, REQUIREMENTS } from './requirements';
import { scopeTable, withScopeTable } from './scopes-table';
import { SHOTS, takeScreenshots } from './screenshots';
import { supportHtml } from './support';
import { listingText, readmeFeatures } from './texts';
import { VERIFICATION_DOC, verificationMarkdown } from './verification';

const ROOT = join(__dirname, '..', '..');
export const KIT_DIR = join(ROOT, 'marketplace');
/** The date the pages show; change it when their words change (not on every run, so the kit stays put). */
export const PAGES_UPDATED = '2026-11-28';

const ICON_SOURCE = join(__dirname, 'icon.svg');

function render(svg: string, width: number): Buffer {
  return Buffer.from(new Resvg(svg, { fitTo: { mode: 'width', value: width } }).render().asPng());
}

/** The banner: the icon, centred on the icon's own colour, 220 x 140 (the same source, nested). */
export function bannerSvg(icon: string): string {
  const inner = icon.replace(/<svg[^>]*>/, '<svg x="54" y="14" width="112" height="112" viewBox="0 0 128 128">');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${BANNER.width}" height="${BANNER.height}" viewBox="0 0 ${BANNER.width} ${BANNER.height}"><rect width="100%" height="100%" fill="#e6f4f1"/>${inner}</svg>`;
}

function writeIcons(): void {
  const svg = readFileSync(ICON_SOURCE, 'utf8');
  mkdirSync(join(KIT_DIR, 'icons'), { recursive: true });
  for (const n of ICON_SIZES) writeFileSync(join(KIT_DIR, KIT.icon(n)), render(svg, n));
  writeFileSync(join(KIT_DIR, KIT.banner), render(bannerSvg(svg), BANNER.width));
}

function configuredContact(): string | null {
  const config = JSON.parse(readFileSync(join(ROOT, 'addon.config.json'), 'utf8')) as { supportEmail?: string };
  return config.supportEmail ?? null;
}

function writeTexts(): void {
  const t = listingText(readmeFeatures());
  writeFileSync(join(KIT_DIR, KIT.text), `${JSON.stringify(t, null, 2)}\n`);
  const md = [
    `# ${t.name}`,
    '',
    '## Short description',
    '',
    t.short,
    '',
    '## Detailed description',
    '',
    t.detailed,
    '',
    '## Features',
    '',
    ...t.features.map((f) => `- ${f}`),
    '',
  ];
  writeFileSync(join(KIT_DIR, 'listing.md'), md.join('\n'));
  writeFileSync(
    join(KIT_DIR, 'scopes.md'),
    `# OAuth scopes and why\n\nFrom tools/build/scopes.cjs, as the manifest declares them.\n\n${scopeTable()}\n`,
  );
  const readme = join(ROOT, 'README.md');
  writeFileSync(readme, withScopeTable(readFileSync(readme, 'utf8')));
}

function writePages(): void {
  const config = JSON.parse(readFileSync(join(ROOT, 'addon.config.json'), 'utf8')) as { serviceUrl: string };
  writeFileSync(join(KIT_DIR, 'privacy.html'), privacyHtml(PAGES_UPDATED));
  writeFileSync(join(KIT_DIR, 'terms.html'), termsHtml(PAGES_UPDATED));
  writeFileSync(join(KIT_DIR, 'support.html'), supportHtml(PAGES_UPDATED, config.serviceUrl, configuredContact()));
}

export function screenshotsIn(dir = KIT_DIR): string[] {
  const d = join(dir, KIT.screenshotsDir);
  return existsSync(d)
    ? readdirSync(d)
        .filter((f) => f.endsWith('.png'))
        .sort()
    : [];
}

export function kitReadme(misses: readonly string[]): string {
  const rows = REQUIREMENTS.map((r) => `| ${r.what} | ${r.rule} | [${r.page.title}](${r.page.url}) | ${r.verified} |`);
  return [
    '# Google Workspace Marketplace listing kit',
    '',
    'Written by `npm run listing` (tools/listing/main.ts); do not edit by hand. Upload these in the Google Cloud',
    'console > Google Workspace Marketplace SDK > Store Listing, and publish the three pages at public addresses.',
    '',
    '| file | what |',
    '|---|---|',
    `| ${ICON_SIZES.map((n) => `\`${KIT.icon(n)}\``).join(', ')} | the application icons, rendered from tools/listing/icon.svg |`,
    `| \`${KIT.banner}\` | the application card banner, from the same source |`,
    `| ${SHOTS.map((s) => `\`${KIT.screenshotsDir}/${s}\``).join(', ')} | screenshots of the playground: the scan journey, a result tab, the scan's Overview tab, the lists, a purchase order |`,
    `| \`${KIT.text}\`, \`listing.md\` | name, short and detailed descriptions, the feature list (README.md "Features") |`,
    "| `scopes.md` | the scope justification table (tools/build/scopes.cjs); the reviewers' notes are docs/oauth-verification.md |",
    '| `privacy.html`, `terms.html`, `support.html` | privacy policy, terms of service, support page |',
    '',
    "## Google's requirements, as checked",
    '',
    '| what | requirement | page | verified |',
    '|---|---|---|---|',
    ...rows,
    '',
    misses.length ? `Not met:\n\n${misses.map((m) => `- ${m}`).join('\n')}` : 'Every file above met them when the kit was written.',
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const shots = !process.argv.includes('--no-screenshots');
  mkdirSync(KIT_DIR, { recursive: true });
  writeIcons();
  writeTexts();
  writePages();
  writeFileSync(join(ROOT, VERIFICATION_DOC), verificationMarkdown(join(ROOT, 'dist', 'Code.js')));
  if (shots) {
    const t = Date.now();
    await takeScreenshots(join(KIT_DIR, KIT.screenshotsDir));
    recordScreenshotsBuild(ROOT, join(ROOT, 'dist'));
    console.log(`screenshots taken in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
  const misses = checkKit(KIT_DIR, screenshotsIn());
  writeFileSync(join(KIT_DIR, 'README.md'), kitReadme(misses));
  if (!configuredContact())
    console.log('Note: addon.config.json has no "supportEmail": the support page points to the listing\'s support address.');
  for (const r of REQUIREMENTS) console.log(`- ${r.what}: ${r.rule} (${r.page.title}; ${r.verified})`);
  if (misses.length) {
    console.error(`\nThe kit misses Google's requirements:\n${misses.map((m) => `- ${m}`).join('\n')}`);
    process.exit(1);
  }
  console.log(`\nmarketplace/ written and checked: every file meets the requirements above.`);
}

if (require.main === module)
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
