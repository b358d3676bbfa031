/**
 * Starts the local Scan Service in a CHILD process (main.ts via tsx) and resolves when it prints
 * `listening on ...`. Add-on tests need this: the local Apps Script runtime blocks its thread on
 * a synchronous UrlFetch, so a service in the same process could never answer.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEMO_API_KEY } from './config';
import { ended, type StandIn, stopChild, untilListening } from '../stand-in';

export interface SpawnedService extends StandIn {
  /** The first account's key. */
  apiKey: string;
  /** Every account's key (without marketplace restrictions). */
  apiKeys: string[];
  /** Output of the child so far (for failing tests' messages). */
  output(): string;
  /** The child's process id (tests measure its memory). */
  pid: number;
  /** kill -9: no shutdown at all (tests of what survives a crash). */
  kill(): Promise<void>;
}

const ROOT = join(__dirname, '..', '..');

/**
 * `env`: SCAN_SERVICE_* settings; by default a free port and a throwaway in-memory database.
 * Rejects with the child's output when it does not start within `timeoutMs`.
 */
export function spawnService(env: Record<string, string> = {}, timeoutMs = 30_000): Promise<SpawnedService> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, SCAN_SERVICE_PORT: '0', SCAN_SERVICE_DB: ':memory:', ...env };
  const keys = (childEnv.SCAN_SERVICE_API_KEYS ? childEnv.SCAN_SERVICE_API_KEYS.split(',') : [DEMO_API_KEY])
    .map((k: string) => k.split(':')[0].trim())
    .filter(Boolean);
  // tsx as a loader of this one node process (not its CLI, which runs the service in a grandchild):
  // so `pid` is the service's own process, and kill -9 ends the service itself.
  const tsx = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
  // The test run bundles main.ts once (tools/jest-bundles.cjs): the same code, started cheaper.
  const bundle = process.env.SCAN_SERVICE_MAIN_BUNDLE;
  const child = spawn(process.execPath, bundle ? [bundle] : ['--import', tsx, join(__dirname, 'main.ts')], {
    cwd: ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return untilListening(child, 'scan service', timeoutMs).then((c) => ({
    url: c.url,
    apiKey: keys[0],
    apiKeys: keys,
    output: c.output,
    pid: child.pid!,
    kill: () => ended(child, 'SIGKILL'),
    stop: stopChild(child),
  }));
}
