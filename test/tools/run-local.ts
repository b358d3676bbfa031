/**
 * `npm run local -- ...` as people run it: tools/local.ts in a child process (tsx, or the jest run's
 * bundle of it) from the project root, with the test's environment plus `env` (a variable set to
 * undefined is removed).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const TSX = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');

export function runLocal(
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const childEnv = { ...process.env, ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete childEnv[k];
  return new Promise((resolve) => {
    // The jest run bundles tools/local.ts once (tools/jest-bundles.cjs): the same program, without tsx's cost per start.
    const bundle = process.env.SCAN_ADDON_LOCAL_BUNDLE;
    const child = spawn(process.execPath, bundle ? [bundle, ...args] : [TSX, join(ROOT, 'tools', 'local.ts'), ...args], {
      cwd: ROOT,
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // 'close', not 'exit': only then has all of its output been read.
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
