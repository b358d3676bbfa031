/**
 * The scope table, generated from tools/build/scopes.cjs (the one list of scopes): README.md shows
 * it between two markers and marketplace/scopes.md holds it for the OAuth consent screen and the
 * verification form. `npm run listing` writes both; test/build/listing.test.ts holds them equal.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ADDON_SCOPES } = require('../build/scopes.cjs') as { ADDON_SCOPES: Array<{ scope: string; feature: string; consent: string }> };

export const SCOPES = ADDON_SCOPES;
export const shortScope = (s: string) => s.replace('https://www.googleapis.com/auth/', '');

export const README_START = '<!-- scope table: written by npm run listing from tools/build/scopes.cjs -->';
export const README_END = '<!-- end of scope table -->';

export function scopeTable(): string {
  return [
    "| scope | feature that needs it | Google's consent screen shows |",
    '|---|---|---|',
    ...SCOPES.map((s) => `| \`${shortScope(s.scope)}\` | ${s.feature} | ${s.consent} |`),
  ].join('\n');
}

/** README.md with its scope table (between the markers) replaced by the generated one. */
export function withScopeTable(readme: string): string {
  const a = readme.indexOf(README_START);
  const b = readme.indexOf(README_END);
  if (a < 0 || b < a) throw new Error(`README.md lacks the scope table markers ${README_START} … ${README_END}`);
  return `${readme.slice(0, a + README_START.length)}\n${scopeTable()}\n${readme.slice(b)}`;
}

/** The README's table as it stands (between the markers). */
export function readmeScopeTable(readme: string): string {
  const a = readme.indexOf(README_START);
  const b = readme.indexOf(README_END);
  return a < 0 || b < a ? '' : readme.slice(a + README_START.length, b).trim();
}
