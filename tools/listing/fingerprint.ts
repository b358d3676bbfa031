/**
 * Which build the screenshots show: `npm run listing` records the SHA-256 of the built add-on
 * (dist/Code.js and dist/Sidebar.html, before any release stamp) beside the screenshots, and
 * `npm run release` compares it with the build it releases, so the screenshots are made again
 * whenever the add-on changes (a real release refuses stale ones; a dry run says so).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const SCREENSHOTS_BUILD = join('marketplace', 'screenshots', 'build.json');

export function buildFingerprint(distDir: string): string {
  const h = createHash('sha256');
  for (const f of ['Code.js', 'Sidebar.html']) h.update(readFileSync(join(distDir, f)));
  return h.digest('hex');
}

export function recordScreenshotsBuild(root: string, distDir: string): void {
  writeFileSync(join(root, SCREENSHOTS_BUILD), `${JSON.stringify({ build: buildFingerprint(distDir) }, null, 2)}\n`);
}

/** Whether the screenshots recorded under `root` were taken from the build in `distDir`. */
export function screenshotsCurrent(root: string, distDir: string): boolean {
  const file = join(root, SCREENSHOTS_BUILD);
  if (!existsSync(file)) return false;
  return (JSON.parse(readFileSync(file, 'utf8')) as { build?: string }).build === buildFingerprint(distDir);
}
