/**
 * Docs that are true (issue 34): every path a Markdown file names in backticks exists. A path is a
 * backticked word with a "/" and a file ending (or a trailing "/"), not an API path ("/api/…"), an
 * address, a glob, or a build output (`dist/`, `node_modules/`: made by the commands the docs name).
 * It may be written from the repository's root, from the file's own folder or one above it, or as
 * the tail of a path below the file's folder (src/README.md says `settings/` for src/app/settings).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const tracked = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
const known = new Set<string>();
for (const f of tracked) {
  known.add(f);
  for (let d = dirname(f); d !== '.'; d = dirname(d)) known.add(d);
}
const ENDING = /\.(ts|js|cjs|mjs|json|md|html|css|svg|png|xlsx|csv|yaml|yml|sh)$|\/$/;
const GENERATED = /^(\.\.\/)*(dist|node_modules)\//;

/** The backticked paths of a Markdown text that look like paths of this repository. */
export function namedPaths(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/`([^`\s]+)`/g)) {
    const t = m[1];
    if (!t.includes('/') || t.startsWith('/') || t.includes('://') || !ENDING.test(t) || !/^[\w.\-/]+$/.test(t) || GENERATED.test(t))
      continue;
    out.push(t);
  }
  return out;
}

/** Whether `path`, named in the Markdown file `md`, exists by the rule above. */
export function exists(md: string, path: string, paths: Set<string> = known): boolean {
  const p = path.replace(/\/$/, '');
  for (let d = dirname(md); ; d = dirname(d)) {
    if (paths.has(normalize(join(d, p)))) return true;
    if (d === '.') break;
  }
  const below = dirname(md) === '.' ? '' : dirname(md) + '/';
  for (const k of paths) if (k.startsWith(below) && k.endsWith('/' + p)) return true;
  return false;
}

test('the checker finds a path that does not exist, and accepts the ways the docs name existing ones', () => {
  const paths = new Set(['src', 'src/app', 'src/app/settings', 'src/app/settings/rules.ts', 'src/README.md', 'README.md']);
  expect(namedPaths('see `src/app/settings/rules.ts`, `../services.ts`, `/api/v3/scans`, `dist/Code.js`, `npm test`')).toEqual([
    'src/app/settings/rules.ts',
    '../services.ts',
  ]);
  expect(exists('README.md', 'src/app/settings/rules.ts', paths)).toBe(true);
  expect(exists('src/README.md', 'settings/', paths)).toBe(true);
  expect(exists('src/app/settings/README.md', '../settings/rules.ts', paths)).toBe(true);
  expect(exists('src/app/settings/README.md', '../services.ts', paths)).toBe(false);
  expect(exists('README.md', 'src/app/nothing.ts', paths)).toBe(false);
});

test('every path a Markdown file names in backticks exists', () => {
  const missing: string[] = [];
  for (const md of tracked.filter((f) => f.endsWith('.md') && !f.startsWith('node_modules/'))) {
    for (const p of namedPaths(readFileSync(join(ROOT, md), 'utf8'))) if (!exists(md, p)) missing.push(`${md}: \`${p}\``);
  }
  expect(missing).toEqual([]);
});
