/**
 * `npm test`: the build, then jest together with the static checks (typecheck, lint, format check).
 * jest needs dist/, so the build comes first; the checks need nothing jest makes, so they run beside
 * it at a lower CPU priority: on two cores they fill the time jest's workers spend waiting on child
 * processes and real time, instead of adding about 15 s before the first test. Their output is held
 * and printed after jest's; the run fails when the build, jest or any check fails.
 * Arguments go to jest (`npm test -- test/unit`).
 */
const { spawn, spawnSync } = require('node:child_process');
const { setPriority } = require('node:os');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const CHECKS = ['typecheck', 'lint', 'format:check'];
/** Lower priority (higher niceness) for the checks: jest's workers come first when both want a core. */
const CHECK_NICENESS = 10;

function check(script) {
  const started = Date.now();
  const child = spawn(NPM, ['run', '-s', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    setPriority(child.pid, CHECK_NICENESS);
  } catch {
    // not allowed here: it runs at normal priority, only the timing differs
  }
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  return new Promise((resolve) => {
    child.on('error', (e) => resolve({ script, code: 1, out: String(e), seconds: 0 }));
    child.on('close', (code) => resolve({ script, code: code ?? 1, out, seconds: (Date.now() - started) / 1000 }));
  });
}

async function main() {
  const build = spawnSync(NPM, ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) return 1;
  const checks = Promise.all(CHECKS.map(check));
  const jest = await new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'), ...process.argv.slice(2)], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    child.on('close', (code) => resolve(code ?? 1));
  });
  const results = await checks;
  process.stdout.write('\n');
  for (const r of results) {
    process.stdout.write(`${r.script}: ${r.code === 0 ? 'passed' : 'FAILED'} (${r.seconds.toFixed(1)} s)\n`);
    if (r.code !== 0) process.stdout.write(r.out.trimEnd() + '\n');
  }
  return jest !== 0 || results.some((r) => r.code !== 0) ? 1 : 0;
}

main().then(
  (code) => (process.exitCode = code),
  (e) => {
    console.error(e);
    process.exitCode = 1;
  },
);
