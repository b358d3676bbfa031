/**
 * Stamps a released version into the built bundle: src/app/help/version.ts holds the one literal
 * `release-version:unreleased`, which Help reads. It must be found exactly once, or the bundle is
 * not the one this tool knows, and nothing is written.
 */
import { readFileSync, writeFileSync } from 'node:fs';

export const UNRELEASED = 'release-version:unreleased';

export function stampVersion(codeJs: string, version: string): void {
  const text = readFileSync(codeJs, 'utf8');
  const found = text.split(UNRELEASED).length - 1;
  if (found !== 1) throw new Error(`${codeJs}: expected the version marker "${UNRELEASED}" once, found it ${found} times`);
  writeFileSync(codeJs, text.replace(UNRELEASED, `release-version:${version}`));
}
