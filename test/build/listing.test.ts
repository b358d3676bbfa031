/**
 * The Marketplace listing kit in marketplace/ (issue 35), as committed: every file meets Google's
 * listing requirements (tools/listing/requirements.ts names the page of each), the privacy policy
 * names every kind of thing the add-on stores (read from src/store, not listed here), and each
 * generated file is what `npm run listing` makes from its sources today (README's features and
 * scope table, the add-on's own messages, the bundle's calls). Screenshots are not retaken here
 * (about 12 s of Chromium): their count and sizes are checked.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import { bannerSvg, KIT_DIR, PAGES_UPDATED, screenshotsIn } from '../../tools/listing/main';
import { privacyHtml, STORED, termsHtml, unnamedKinds } from '../../tools/listing/policy';
import { checkKit, ICON_SIZES, KIT, pngSize, SCREENSHOT } from '../../tools/listing/requirements';
import { SHOTS } from '../../tools/listing/screenshots';
import { readmeScopeTable, scopeTable } from '../../tools/listing/scopes-table';
import { storedKinds } from '../../tools/listing/store-kinds';
import { supportEntries, supportHtml } from '../../tools/listing/support';
import { listingText, readmeFeatures } from '../../tools/listing/texts';
import { VERIFICATION_DOC, verificationMarkdown } from '../../tools/listing/verification';

const ROOT = join(__dirname, '..', '..');
const kit = (f: string) => readFileSync(join(KIT_DIR, f), 'utf8');
const config = JSON.parse(readFileSync(join(ROOT, 'addon.config.json'), 'utf8')) as { serviceUrl: string; supportEmail?: string };

describe("the kit meets Google's listing requirements (Google Workspace Marketplace: Create a store listing)", () => {
  test('every icon, the banner, the five screenshots, the texts and the three pages: nothing missed', () => {
    expect(screenshotsIn()).toEqual([...SHOTS]);
    expect(checkKit(KIT_DIR, screenshotsIn())).toEqual([]);
    for (const s of SHOTS)
      expect(pngSize(join(KIT_DIR, KIT.screenshotsDir, s))).toEqual({ width: SCREENSHOT.width, height: SCREENSHOT.height });
  });

  test('the check catches a wrong size, a sixth screenshot and a long short description', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kit-'));
    cpSync(KIT_DIR, dir, { recursive: true });
    cpSync(join(dir, KIT.icon(128)), join(dir, KIT.icon(96)));
    const text = JSON.parse(readFileSync(join(dir, KIT.text), 'utf8'));
    writeFileSync(join(dir, KIT.text), JSON.stringify({ ...text, short: 'x'.repeat(201) }));
    expect(checkKit(dir, [...SHOTS, SHOTS[0]])).toEqual([
      expect.stringMatching(/^icons\/icon-96\.png: 128 x 128, needs 96 x 96 \(G Suite Marketplace SDK/),
      expect.stringMatching(/^screenshots\/: 6 screenshots, needs 1 to 5 \(Google Workspace Marketplace: Create a store listing\)$/),
      expect.stringMatching(/^listing\.json short: 201 characters, at most 200 /),
    ]);
  });

  test('the icons and the banner are the SVG source rendered by resvg, byte for byte', () => {
    const svg = readFileSync(join(ROOT, 'tools', 'listing', 'icon.svg'), 'utf8');
    const png = (s: string, w: number) => Buffer.from(new Resvg(s, { fitTo: { mode: 'width', value: w } }).render().asPng());
    for (const n of ICON_SIZES) expect(png(svg, n).equals(readFileSync(join(KIT_DIR, KIT.icon(n))))).toBe(true);
    expect(png(bannerSvg(svg), 220).equals(readFileSync(join(KIT_DIR, KIT.banner)))).toBe(true);
  });
});

describe('the privacy policy is true of the code', () => {
  const policy = () => kit('privacy.html');

  test('it names every kind of storage name src/store spells, and nothing src/store no longer has', () => {
    const kinds = storedKinds();
    expect(kinds.length).toBeGreaterThan(20);
    expect(kinds).toEqual(
      expect.arrayContaining(['scan.settings', 'scan.suppliers.', 'scan.import.', 'scan.running', 'sc1', '_scan_base_']),
    );
    expect(unnamedKinds(kinds, policy())).toEqual([]);
    expect(STORED.map((s) => s.name).sort()).toEqual(kinds);
  });

  test('a key added to src/store without a line in the policy is caught', () => {
    const store = mkdtempSync(join(tmpdir(), 'store-'));
    cpSync(join(ROOT, 'src', 'store'), store, { recursive: true });
    writeFileSync(
      join(store, 'keys.ts'),
      `${readFileSync(join(store, 'keys.ts'), 'utf8')}\nexport const SHIPMENTS_KEY = 'scan.shipments';\n`,
    );
    expect(unnamedKinds(storedKinds(store), policy())).toEqual(['scan.shipments']);
  });

  test('it says where the key, the records, the checkpoints and the supplier memory are kept, and that nothing is on our servers', () => {
    const p = policy();
    expect(p).toContain('Nothing is stored on our servers');
    expect(p).toContain('Your Scan Service API key is kept only in your user properties.');
    const row = (name: string) => STORED.find((s) => s.name === name)!.store;
    expect(row('scan.settings')).toBe('user properties');
    expect(row('scan.suppliers.')).toBe('user properties');
    expect(row('scan.import.')).toBe('document properties'); // a checkpoint
    expect(row('scan.running')).toBe('document properties'); // a record
    for (const s of STORED) expect(s.kept).not.toBe('');
  });
});

describe('each generated file is what npm run listing makes today', () => {
  test('texts: the README feature list, within the lengths', () => {
    const t = JSON.parse(kit(KIT.text));
    expect(t).toEqual(listingText(readmeFeatures()));
    expect(t.features.length).toBeGreaterThanOrEqual(10);
  });

  test("the scope table: README's copy and marketplace/scopes.md are the generator's, one row per scope of tools/build/scopes.cjs", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readmeScopeTable(readme)).toBe(scopeTable());
    expect(kit('scopes.md')).toContain(`\n${scopeTable()}\n`);
  });

  test('the pages: privacy, terms and support (messages made by the add-on’s own code)', () => {
    expect(kit('privacy.html')).toBe(privacyHtml(PAGES_UPDATED));
    expect(kit('terms.html')).toBe(termsHtml(PAGES_UPDATED));
    expect(kit('support.html')).toBe(supportHtml(PAGES_UPDATED, config.serviceUrl, config.supportEmail ?? null));
    const entries = supportEntries(config.serviceUrl);
    expect(entries.map((e) => e.message)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^No API key is saved yet\./), expect.stringMatching(/^The API key was refused/)]),
    );
  });

  test('the OAuth verification notes: the calls of the built bundle under each scope', () => {
    const doc = readFileSync(join(ROOT, VERIFICATION_DOC), 'utf8');
    expect(doc).toBe(verificationMarkdown(join(ROOT, process.env.ADDON_OUT_DIR || 'dist', 'Code.js')));
    expect(doc).toContain('- `UrlFetchApp.fetchAll` ([reference](');
    expect(doc).toContain('- `Drive.Files.create` ([reference](');
  });
});
