/**
 * `npm run release -- <version> --dry-run` (issue 35) on a fresh clone of this repository, with no
 * Google account (HOME is an empty folder) and a stand-in `npx` on PATH that records any call: the
 * dry run builds, stamps the version that Help shows, writes the CHANGELOG entry and prints the clasp
 * commands without running one. The real tree is never touched. The whole `npm test` is not run
 * inside: `--test-command` (accepted only with --dry-run) stands in for it, so a passing and a
 * failing suite can both be seen.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime } from '../../emulator/gas';

jest.setTimeout(60_000);

const ROOT = join(__dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'release-'));
const clone = join(dir, 'clone');
const home = join(dir, 'home');
const bin = join(dir, 'bin');
const npxCalls = join(dir, 'npx-calls');
const git = (args: string[], cwd = clone) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

beforeAll(() => {
  execFileSync('git', ['clone', '--quiet', ROOT, clone]);
  // node_modules as installed here; a symlink, which .gitignore's `node_modules/` does not cover.
  symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'));
  writeFileSync(join(clone, '.git', 'info', 'exclude'), 'node_modules\n');
  mkdirSync(home);
  mkdirSync(bin);
  writeFileSync(join(bin, 'npx'), `#!/bin/sh\necho "$@" >> ${npxCalls}\nexit 1\n`);
  chmodSync(join(bin, 'npx'), 0o755);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The clone as cloned: no change, no build. */
function reset(): void {
  git(['checkout', '--quiet', '--', '.']);
  git(['clean', '--quiet', '-fdx', '-e', 'node_modules']);
}

function release(args: string[]): { code: number; out: string } {
  const env = { ...process.env, HOME: home, PATH: `${bin}:${process.env.PATH}` };
  const r = spawnSync('npm', ['run', '--silent', 'release', '--', ...args], { cwd: clone, env, encoding: 'utf8' });
  return { code: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
}

test('a dry run on a fresh clone: every step printed, the version stamped for Help, the CHANGELOG written, no clasp command run', () => {
  reset();
  const realCode = readFileSync(join(ROOT, 'dist', 'Code.js'), 'utf8');
  const r = release(['0.2.0', '--dry-run', '--test-command', 'true']);
  expect(r.out).not.toContain('Release refused');
  expect(r.code).toBe(0);
  // The committed screenshots are of the build this clone makes (npm run listing recorded it).
  expect(r.out).toContain("The listing's screenshots were taken from this build (marketplace/screenshots/build.json).");
  for (let n = 1; n <= 7; n++) expect(r.out).toContain(`[${n}/7]`);
  expect(r.out).toContain('$ npx clasp push --force   (dry run: not run)');
  expect(r.out).toContain('$ npx clasp version 0.2.0   (dry run: not run)');
  expect(r.out).toContain('$ npx clasp deploy --versionNumber <N> --description 0.2.0   (dry run: not run)');
  expect(r.out).toContain('$ git add CHANGELOG.md package.json   (dry run: not run)');
  expect(r.out).toContain('$ git tag -a v0.2.0 -m "Release 0.2.0"   (dry run: not run)');
  expect(existsSync(npxCalls)).toBe(false);
  expect(git(['tag'])).toBe('');

  // Help in the built, stamped add-on says the version.
  const rt = createRuntime({ scriptPath: join(clone, 'dist', 'Code.js') });
  const steps = (rt.scriptRun('getHelp') as { steps: Array<{ title: string; text: string }> }).steps;
  expect(steps[steps.length - 1]).toEqual({ title: 'Version', text: 'Product Sourcing Scan 0.2.0.' });

  // The first release summarises every commit of the history (there is no tag).
  const log = readFileSync(join(clone, 'CHANGELOG.md'), 'utf8');
  const today = new Date().toISOString().slice(0, 10);
  const own = git(['rev-list', '--count', '--no-merges', 'HEAD']);
  const first = git(['rev-list', '--max-parents=0', '--abbrev-commit', 'HEAD']);
  expect(log).toMatch(
    new RegExp(`^# Changelog\\n[^]*\\n## 0\\.2\\.0 — ${today}\\n\\nThe first numbered release: ${own} commits from ${first} `),
  );
  expect(JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8')).version).toBe('0.2.0');
  expect(log).not.toContain('No numbered release yet');
  expect(
    git(['status', '--porcelain'])
      .split('\n')
      .map((l) => l.trim())
      .sort(),
  ).toEqual(['M CHANGELOG.md', 'M package.json']);
  // The tree the tests run in is not the one released.
  expect(readFileSync(join(ROOT, 'dist', 'Code.js'), 'utf8')).toBe(realCode);
});

test('a plain build says in Help that it is not a numbered release', () => {
  reset();
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: clone });
  const rt = createRuntime({ scriptPath: join(clone, 'dist', 'Code.js') });
  const steps = (rt.scriptRun('getHelp') as { steps: Array<{ title: string; text: string }> }).steps;
  expect(steps[steps.length - 1]).toEqual({ title: 'Version', text: 'A development build, not a numbered release.' });
});

test('after a release, the next entry lists the commits since its tag, newest entry first', () => {
  reset();
  expect(release(['0.2.0', '--dry-run', '--test-command', 'true']).code).toBe(0);
  git(['add', 'CHANGELOG.md', 'package.json']);
  git(['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '--quiet', '-m', 'Release 0.2.0']);
  git(['tag', 'v0.2.0']);
  const help = join(clone, 'src', 'app', 'help', 'help.ts');
  writeFileSync(help, readFileSync(help, 'utf8').replace("['Scans', 'Past scans:", "['Scans', 'Earlier scans:"));
  git(['add', 'src/app/help/help.ts']);
  git(['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '--quiet', '-m', 'Help: earlier scans. More words here.']);
  const r = release(['0.2.1', '--dry-run', '--test-command', 'true']);
  expect(r.code).toBe(0);
  const log = readFileSync(join(clone, 'CHANGELOG.md'), 'utf8');
  const hash = git(['rev-parse', '--short', 'HEAD']);
  expect(log).toContain(
    `## 0.2.1 — ${new Date().toISOString().slice(0, 10)}\n\n1 commit since v0.2.0:\n\n- Help: earlier scans (${hash})\n`,
  );
  expect(log.indexOf('## 0.2.1')).toBeLessThan(log.indexOf('## 0.2.0'));
  // The add-on changed (src/) since the screenshots: the dry run says so.
  expect(r.out).toContain("Warning: the listing's screenshots are of another build");
  git(['tag', '-d', 'v0.2.0']);
  git(['reset', '--quiet', '--hard', 'origin/HEAD']);
});

test('refused: a dirty tree, a failing test run, a version not above the current one, --test-command in a real release', () => {
  reset();
  writeFileSync(join(clone, 'stray.txt'), 'x');
  const dirty = release(['0.2.0', '--dry-run', '--test-command', 'true']);
  expect(dirty.code).toBe(1);
  expect(dirty.out).toContain('Release refused: The working tree has changes that are not committed');
  expect(dirty.out).toContain('?? stray.txt');
  reset();
  const failing = release(['0.2.0', '--dry-run', '--test-command', 'exit 3']);
  expect(failing.code).toBe(1);
  expect(failing.out).toContain('Release refused: The test command "exit 3" failed (exit 3): nothing was released.');
  expect(readFileSync(join(clone, 'CHANGELOG.md'), 'utf8')).not.toContain('## 0.2.0');
  expect(existsSync(join(clone, 'dist'))).toBe(false);
  expect(release(['0.1.0', '--dry-run', '--test-command', 'true']).out).toContain('0.1.0 is not above the current version 0.1.0');
  expect(release(['v0.2', '--dry-run']).out).toContain('"v0.2" is not a version like 0.2.0');
  const real = release(['0.2.0', '--test-command', 'true']);
  expect(real.code).toBe(1);
  expect(real.out).toContain('--test-command is for dry runs only');
  expect(existsSync(npxCalls)).toBe(false);
});
