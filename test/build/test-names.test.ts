/**
 * Tests that mirror the code (issue 34). The rules, as test/README.md states them:
 * 1. No two test files (`*.test.ts` anywhere under test/) share a file name.
 * 2. A unit test names the module it tests by its path: `test/unit/<dir>/<name>.test.ts` tests
 *    `src/<dir>/<module>.ts` (or the folder `src/<dir>/<module>/`), and `test/contract/<dir>/<name>.test.ts`
 *    or `test/unit/contract/<dir>/<name>.test.ts` tests `contract/<dir>/<module>.ts`, where `<name>` is
 *    `<module>` or `<module>-<aspect>` (an aspect tells twins apart: `plan-sync`, `plan-row-action`).
 *    The module exists, and the test imports it (the folder: a module inside it).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, normalize, relative } from 'node:path';
import { filesUnder } from './files';

const ROOT = join(__dirname, '..', '..');

/** The file names that more than one of these test files has, each with its files. */
export function sharedNames(tests: string[]): Record<string, string[]> {
  const byName = new Map<string, string[]>();
  for (const t of tests) byName.set(basename(t), [...(byName.get(basename(t)) ?? []), t]);
  return Object.fromEntries([...byName].filter(([, files]) => files.length > 1));
}

/** The module paths (from the repository's root, no ending) a unit test's path may name; [] for a test outside the mirrored folders. */
export function namedModules(test: string): string[] {
  const m = /^test\/(unit\/contract|unit|contract)\/(.*?)([^/]+)\.test\.ts$/.exec(test);
  if (!m) return [];
  const top = m[1] === 'unit' ? 'src' : 'contract';
  const parts = m[3].split('-');
  return parts.map((_, i) => `${top}/${m[2]}${parts.slice(0, i + 1).join('-')}`);
}

/** The repository paths a test file's relative imports resolve to (no ending added). */
export function importedPaths(test: string, source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(/(?:\bfrom\s+|\bimport\(\s*|\brequire\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g))
    out.push(normalize(join(dirname(test), m[1])).replace(/\.(ts|js)$/, ''));
  return out;
}

/**
 * The rule-2 problem of one unit test, or null: `isFile`/`isFolder` say whether a module path
 * (no ending) exists as `<path>.ts` or as a folder.
 */
export function unitTestProblem(
  test: string,
  source: string,
  isFile: (p: string) => boolean,
  isFolder: (p: string) => boolean,
): string | null {
  const candidates = namedModules(test);
  if (candidates.length === 0) return null;
  const imports = importedPaths(test, source);
  const existing = candidates.filter((c) => isFile(c) || isFolder(c));
  if (existing.length === 0) return `${test} names no module: none of ${candidates.map((c) => `${c}.ts`).join(', ')} exists`;
  const imported = existing.filter((c) => imports.some((p) => p === c || p === `${c}/index` || (isFolder(c) && p.startsWith(`${c}/`))));
  if (imported.length === 0) return `${test} does not import the module its name says: ${existing.join(' or ')}`;
  return null;
}

const onDisk = {
  isFile: (p: string) => existsSync(join(ROOT, `${p}.ts`)),
  isFolder: (p: string) => existsSync(join(ROOT, p)) && statSync(join(ROOT, p)).isDirectory(),
};

describe('the checks hold on a sample that breaks them', () => {
  test('two test files with one name are found, in any folders', () => {
    expect(
      sharedNames(['test/addon/room.test.ts', 'test/unit/domain/price-list/room.test.ts', 'test/unit/domain/price-list/prepare.test.ts']),
    ).toEqual({
      'room.test.ts': ['test/addon/room.test.ts', 'test/unit/domain/price-list/room.test.ts'],
    });
    expect(sharedNames(['test/sidebar/scan-view.test.ts', 'test/tools/scan-command.test.ts'])).toEqual({});
  });

  test('a unit test whose path names no module, or a module it does not import, is refused; the mirrored path, an aspect and a folder module pass', () => {
    const files = new Set(['src/domain/price-list/room', 'src/app/lists/plan', 'contract/numbers']);
    const folders = new Set(['src/domain/ids']);
    const problem = (test: string, source: string) =>
      unitTestProblem(
        test,
        source,
        (p) => files.has(p),
        (p) => folders.has(p),
      );
    const room = "import { checkRoom } from '../../../../src/domain/price-list/room';";
    // Flat in test/unit, the way room.test.ts was: no src/room.ts.
    expect(problem('test/unit/room.test.ts', "import { checkRoom } from '../../src/domain/price-list/room';")).toBe(
      'test/unit/room.test.ts names no module: none of src/room.ts exists',
    );
    expect(problem('test/unit/domain/price-list/room.test.ts', room)).toBeNull();
    expect(problem('test/unit/domain/price-list/room-wording.test.ts', room)).toBeNull();
    // The right folder, but a name no module has.
    expect(problem('test/unit/domain/price-list/space.test.ts', room)).toBe(
      'test/unit/domain/price-list/space.test.ts names no module: none of src/domain/price-list/space.ts exists',
    );
    // A name that is a module, but the test tests another one.
    expect(problem('test/unit/app/lists/plan-sync.test.ts', "import { planAction } from '../../../../src/app/actions/plan';")).toBe(
      'test/unit/app/lists/plan-sync.test.ts does not import the module its name says: src/app/lists/plan',
    );
    expect(problem('test/unit/app/lists/plan-sync.test.ts', "import { planSync } from '../../../../src/app/lists/plan';")).toBeNull();
    expect(problem('test/unit/domain/ids.test.ts', "import { identify } from '../../../src/domain/ids/identify';")).toBeNull();
    expect(problem('test/contract/numbers.test.ts', "import { commas } from '../../contract/numbers';")).toBeNull();
    expect(problem('test/unit/contract/numbers-words.test.ts', "import { commas } from '../../../contract/numbers';")).toBeNull();
    expect(problem('test/contract/money.test.ts', "import { commas } from '../../contract/numbers';")).toBe(
      'test/contract/money.test.ts names no module: none of contract/money.ts exists',
    );
    // Suites through entry points are outside the rule.
    expect(problem('test/addon/seller-week-runtime.test.ts', '')).toBeNull();
  });
});

describe('the test tree', () => {
  const tests = filesUnder('test')
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => relative(ROOT, join(ROOT, f)));

  test('the premise: the test tree is read, unit tests included', () => {
    expect(tests).toContain('test/build/test-names.test.ts');
    expect(tests.filter((t) => namedModules(t).length > 0).length).toBeGreaterThan(30);
  });

  test('no two test files share a name', () => {
    expect(sharedNames(tests)).toEqual({});
  });

  test('every unit test names, by its path, a module that exists and that it imports', () => {
    const problems = tests
      .map((t) => unitTestProblem(t, readFileSync(join(ROOT, t), 'utf8'), onDisk.isFile, onDisk.isFolder))
      .filter(Boolean);
    expect(problems).toEqual([]);
  });
});
