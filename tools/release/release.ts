/**
 * `npm run release -- <version> [--dry-run] [--test-command "<cmd>"]`: one numbered release.
 *
 * 1. refuses a version that is not semver, not above package.json's, or already tagged;
 * 2. refuses a dirty working tree (anything `git status --porcelain` lists);
 * 3. runs `npm test` and refuses when it fails;
 * 4. builds dist/ (`npm run build`), refuses when the listing's screenshots were taken from another
 *    build (tools/listing/fingerprint.ts: they are made again whenever the add-on changes), and
 *    stamps the version into dist/Code.js (Help shows it);
 * 5. writes the CHANGELOG.md entry from the commits since the last tag (all of them, summarised, when
 *    there is none) and sets package.json's version;
 * 6. `clasp push --force` (dist/ as built; --force: clasp otherwise asks before overwriting the
 *    manifest), `clasp version "<version>"`, `clasp deploy --versionNumber N --description "<version>"`;
 * 7. commits CHANGELOG.md and package.json and tags `v<version>` (only after Google took the version,
 *    so a failed push leaves no tag for a release that does not exist).
 *
 * `--dry-run` runs 1–5 (stale screenshots only warn; in the tree it is run in: the CHANGELOG and package.json are then changed,
 * uncommitted) and prints 6–7 without running them: it needs no Google account and no .clasp.json.
 * `--test-command` replaces step 3's `npm test` and is accepted ONLY with --dry-run: the release's
 * own tests (test/tools/release.test.ts) use it to run a dry run without the whole suite, and to
 * see a failing test refuse the release.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { SCREENSHOTS_BUILD, screenshotsCurrent } from '../listing/fingerprint';
import { changelogEntry, commitsSince, lastTag, withEntry } from './changelog';
import { stampVersion } from './stamp';

interface Options {
  version: string;
  dryRun: boolean;
  testCommand: string | null;
}

class Refused extends Error {}

export function parseArgs(argv: readonly string[]): Options {
  const rest = [...argv];
  const dryRun = rest.includes('--dry-run');
  let testCommand: string | null = null;
  const t = rest.indexOf('--test-command');
  if (t >= 0) {
    testCommand = rest[t + 1] ?? '';
    rest.splice(t, 2);
  }
  const positional = rest.filter((a) => a !== '--dry-run');
  if (positional.length !== 1 || positional[0].startsWith('--'))
    throw new Refused('Usage: npm run release -- <version> [--dry-run]   (for example: npm run release -- 0.2.0 --dry-run)');
  if (testCommand !== null && !dryRun)
    throw new Refused('--test-command is for dry runs only (the release tests): a real release runs npm test.');
  if (testCommand === '') throw new Refused('--test-command needs a command.');
  return { version: positional[0], dryRun, testCommand };
}

const step = (n: number, text: string) => console.log(`\n[${n}/7] ${text}`);
const git = (cwd: string, args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

function run(cwd: string, cmd: string, args: string[], what: string): void {
  console.log(`$ ${[cmd, ...args].join(' ')}`);
  const r = spawnSync(cmd, args, { cwd, stdio: 'inherit', shell: false });
  if (r.status !== 0) throw new Refused(`${what} failed (exit ${r.status ?? r.signal}): nothing was released.`);
}

function checkVersion(root: string, version: string): void {
  if (!semver.valid(version) || semver.clean(version) !== version)
    throw new Refused(`"${version}" is not a version like 0.2.0 (semver, without a leading v).`);
  const current = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version as string;
  if (!semver.gt(version, current)) throw new Refused(`${version} is not above the current version ${current} (package.json).`);
  if (git(root, ['tag', '--list', `v${version}`])) throw new Refused(`v${version} is already tagged.`);
}

function checkClean(root: string): void {
  const dirty = git(root, ['status', '--porcelain']);
  if (dirty) throw new Refused(`The working tree has changes that are not committed; commit or stash them first:\n${dirty}`);
}

function clasp(root: string, args: string[], dryRun: boolean): string {
  console.log(`$ npx clasp ${args.map((a) => (/\s/.test(a) ? `"${a}"` : a)).join(' ')}${dryRun ? '   (dry run: not run)' : ''}`);
  if (dryRun) return '';
  const r = spawnSync('npx', ['clasp', ...args], { cwd: root, encoding: 'utf8', stdio: ['inherit', 'pipe', 'inherit'] });
  process.stdout.write(r.stdout ?? '');
  if (r.status !== 0)
    throw new Refused(`clasp ${args[0]} failed (exit ${r.status}); CHANGELOG.md and package.json are changed, not committed.`);
  return r.stdout ?? '';
}

export function release(root: string, o: Options, today = new Date().toISOString().slice(0, 10)): void {
  console.log(`Release ${o.version}${o.dryRun ? ' (dry run: no clasp command, no commit, no tag)' : ''} of ${root}`);
  step(1, 'Version');
  checkVersion(root, o.version);
  console.log(`${o.version}: semver, above package.json's, not tagged.`);
  step(2, 'Working tree');
  checkClean(root);
  console.log('Clean: nothing uncommitted.');
  if (!o.dryRun && !existsSync(join(root, '.clasp.json')))
    throw new Refused(
      '.clasp.json is missing: run `npx clasp login` and put the script id there (README "Deploying to a real spreadsheet").',
    );
  step(3, 'Tests');
  if (o.testCommand) {
    console.log(`(dry run: --test-command given, used instead of npm test)`);
    run(root, 'sh', ['-c', o.testCommand], `The test command "${o.testCommand}"`);
  } else run(root, 'npm', ['test'], 'npm test');
  step(4, 'Build and stamp');
  run(root, 'npm', ['run', 'build'], 'npm run build');
  if (screenshotsCurrent(root, join(root, 'dist')))
    console.log(`The listing's screenshots were taken from this build (${SCREENSHOTS_BUILD}).`);
  else if (o.dryRun)
    console.log(`Warning: the listing's screenshots are of another build: run npm run listing and commit (a real release refuses).`);
  else
    throw new Refused(
      `The listing's screenshots are of another build (${SCREENSHOTS_BUILD}): run npm run listing, commit, and release again.`,
    );
  stampVersion(join(root, 'dist', 'Code.js'), o.version);
  console.log(`dist/Code.js stamped with ${o.version} (Help > Version).`);
  step(5, 'CHANGELOG.md');
  const since = lastTag(root);
  const entry = changelogEntry(o.version, today, commitsSince(root, since), since);
  const file = join(root, 'CHANGELOG.md');
  writeFileSync(file, withEntry(existsSync(file) ? readFileSync(file, 'utf8') : null, entry));
  const pkgFile = join(root, 'package.json');
  writeFileSync(pkgFile, readFileSync(pkgFile, 'utf8').replace(/("version":\s*")[^"]+(")/, `$1${o.version}$2`));
  console.log(`Entry written (commits since ${since ?? 'the first commit'}), package.json version set:\n\n${entry}`);
  step(6, 'Google: push, version, deploy');
  if (o.dryRun && !existsSync(join(root, '.clasp.json')))
    console.log('(no .clasp.json here: a real release needs it, and `npx clasp login`)');
  clasp(root, ['push', '--force'], o.dryRun);
  const created = clasp(root, ['version', o.version], o.dryRun);
  const number = o.dryRun ? '<N>' : /version (\d+)/i.exec(created)?.[1];
  if (!number) throw new Refused(`clasp version did not say the version number it created:\n${created}`);
  clasp(root, ['deploy', '--versionNumber', number, '--description', o.version], o.dryRun);
  step(7, 'Commit and tag');
  const add = ['add', 'CHANGELOG.md', 'package.json'];
  const commit = ['commit', '-m', `Release ${o.version}`];
  const tag = ['tag', '-a', `v${o.version}`, '-m', `Release ${o.version}`];
  for (const args of [add, commit, tag]) {
    console.log(`$ git ${args.map((a) => (/\s/.test(a) ? `"${a}"` : a)).join(' ')}${o.dryRun ? '   (dry run: not run)' : ''}`);
    if (!o.dryRun) git(root, args);
  }
  console.log(
    o.dryRun
      ? `\nDry run done: CHANGELOG.md and package.json are changed here, not committed (git checkout -- CHANGELOG.md package.json undoes it).`
      : `\nReleased ${o.version}: pushed, version ${number}, deployed, tagged v${o.version}. Push the tag: git push --follow-tags`,
  );
}

if (require.main === module) {
  try {
    release(process.cwd(), parseArgs(process.argv.slice(2)));
  } catch (e) {
    if (!(e instanceof Refused)) throw e;
    console.error(`\nRelease refused: ${e.message}`);
    process.exit(1);
  }
}
