/**
 * `npm run typecheck`: the four TypeScript projects (src/ for Apps Script, the sidebar page, everything
 * run by Node, the playground's page), two at a time on two cores instead of one after another, each
 * incremental (its .tsbuildinfo in node_modules/.cache/tsc, so an unchanged project checks in about a
 * second). Prints each project's errors under its name; fails when any project fails.
 */
const { spawn } = require('node:child_process');
const { copyFileSync, mkdirSync, renameSync } = require('node:fs');
const { availableParallelism } = require('node:os');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
// Largest first, so the long one never starts last.
const PROJECTS = ['tsconfig.node.json', 'tsconfig.json', 'tsconfig.sidebar.json', 'tsconfig.playground.json'];
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/**
 * tsc reads and writes its .tsbuildinfo in place; two checks at once (two `npm test` in one tree)
 * would read each other's half-written file. So each run works on its own copy and renames it over
 * the kept one when done (a rename is atomic).
 */
function check(project) {
  const dir = join(ROOT, 'node_modules', '.cache', 'tsc');
  mkdirSync(dir, { recursive: true });
  const kept = join(dir, project.replace(/\.json$/, '.tsbuildinfo'));
  const info = `${kept}.${process.pid}`;
  try {
    copyFileSync(kept, info);
  } catch {
    // first run: nothing kept yet
  }
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [TSC, '--noEmit', '-p', project, '--incremental', '--tsBuildInfoFile', info], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => {
      try {
        renameSync(info, kept);
      } catch {
        // tsc wrote none (it failed before checking): keep the old one
      }
      resolve({ project, code, out });
    });
  });
}

async function main() {
  const queue = [...PROJECTS];
  const results = [];
  const lanes = Array.from({ length: Math.max(1, Math.min(queue.length, availableParallelism())) }, async () => {
    while (queue.length) results.push(await check(queue.shift()));
  });
  await Promise.all(lanes);
  let failed = 0;
  for (const r of results) {
    if (r.code === 0) continue;
    failed++;
    process.stdout.write(`\ntsc -p ${r.project} failed:\n${r.out}`);
  }
  process.exitCode = failed ? 1 : 0;
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
