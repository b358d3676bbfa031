/**
 * What a new user's `npm install` brings (README: the Node it names, then `npm install`): every
 * installed package accepts that Node (no EBADENGINE), every install script that must run is
 * declared in allowScripts (npm 11 runs only those), and the browser tests find a Chromium with no
 * system package and no download.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';

const ROOT = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** "Node 20.19 or newer" in the README's Quick start. */
function readmeNode(): string {
  const m = /Node (\d+\.\d+) or newer/.exec(readme);
  if (!m) throw new Error('README names no minimum Node ("Node X.Y or newer")');
  return `${m[1]}.0`;
}

test("package.json's engines and the README name the same minimum Node", () => {
  expect(semver.minVersion(pkg.engines.node)?.version).toBe(readmeNode());
});

test('every package in the lock file supports the minimum Node the README names', () => {
  const min = readmeNode();
  const refusing = Object.entries<any>(lock.packages)
    .filter(([, p]) => typeof p.engines?.node === 'string' && !semver.satisfies(min, p.engines.node))
    .map(([name, p]) => `${name} needs node ${p.engines.node}`);
  expect(refusing).toEqual([]);
});

test('every package with an install script is declared in allowScripts (approved or denied)', () => {
  const declared = pkg.allowScripts ?? {};
  const undeclared = Object.entries<any>(lock.packages)
    .filter(([name, p]) => name && p.hasInstallScript)
    .map(([name]) => name.slice(name.lastIndexOf('node_modules/') + 'node_modules/'.length))
    .filter((name) => !(name in declared));
  expect(undeclared).toEqual([]);
  // The ones the project cannot work without are approved.
  for (const name of ['better-sqlite3', 'esbuild', '@swc/core']) expect(declared[name]).toBe(true);
});

test('the browser tests have a Chromium without a system package: the one inside @sparticuz/chromium', () => {
  expect(pkg.devDependencies['@sparticuz/chromium']).toBeDefined();
  const bin = join(ROOT, 'node_modules', '@sparticuz', 'chromium', 'bin', 'chromium.br');
  expect(existsSync(bin)).toBe(true);
  // jest's global setup resolved one and said which.
  expect(process.env.CHROMIUM_PATH && existsSync(process.env.CHROMIUM_PATH)).toBeTruthy();
  expect(process.env.SCAN_ADDON_CHROMIUM_SOURCE).toMatch(/CHROMIUM_PATH|system|@sparticuz\/chromium/);
});

test('.ci/run runs exactly the README commands: no apt step', () => {
  const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
  expect(ci).not.toMatch(/apt-get|apt install|playwright install/);
  expect(ci).toMatch(/^npm install\b/m);
  expect(ci).toMatch(/^npm test\b/m);
});
