/**
 * docs/first-push.md ties each step of a first push to the local test that models it. This holds it
 * to the tree: every test file it names exists, and every test it names (after ›, in “ ”) is still
 * in that file, so a renamed or deleted test fails here instead of leaving the plan pointing nowhere.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const DOC = readFileSync(join(ROOT, 'docs', 'first-push.md'), 'utf8');

/** Every `test/….test.ts` the document names, with the test name after it when there is one. */
function references(text: string): Array<{ file: string; name: string | null }> {
  const out: Array<{ file: string; name: string | null }> = [];
  const re = /`(test\/[\w./-]+\.test\.ts)`(?:\s*›\s*“([^”]+)”)?/g;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push({ file: m[1], name: m[2] ?? null });
  return out;
}

test('docs/first-push.md names test files, each with a test', () => {
  const refs = references(DOC);
  expect(refs.length).toBeGreaterThan(15);
  expect(refs.filter((r) => r.name === null && r.file !== 'test/build/first-push.test.ts')).toEqual([]);
});

test('every test file docs/first-push.md names exists', () => {
  expect(references(DOC).filter((r) => !existsSync(join(ROOT, r.file)))).toEqual([]);
});

test('every test docs/first-push.md names is in its file', () => {
  const missing = references(DOC).filter((r) => r.name && !readFileSync(join(ROOT, r.file), 'utf8').includes(r.name));
  expect(missing).toEqual([]);
});

test('the check finds a missing file and a missing test', () => {
  // Built at run time, so that this file does not hold the name it looks for.
  const absent = ['a', 'test', 'this', 'file', 'lacks'].join(' ');
  const refs = references(`\`test/build/nope.test.ts\` › “x” and \`test/build/first-push.test.ts\` › “${absent}”`);
  expect(refs.filter((r) => !existsSync(join(ROOT, r.file))).map((r) => r.file)).toEqual(['test/build/nope.test.ts']);
  expect(refs.filter((r) => existsSync(join(ROOT, r.file)) && !readFileSync(join(ROOT, r.file), 'utf8').includes(r.name!))).toHaveLength(1);
});
