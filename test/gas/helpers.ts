/** Shared set-up for the local Apps Script runtime's own tests. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { createRuntime, type Runtime, type RuntimeOptions } from '../../emulator/gas';
import { Workbook } from '../../emulator/gas/spreadsheet';
import { childStandIn, PRINTED_PORT, type StandIn } from '../../emulator/stand-in';

export const FIXTURES = path.join(__dirname, 'fixtures');
export const SERVICES_SCRIPT = path.join(FIXTURES, 'services.js');

/** A runtime over the fixture script, on a fixed virtual start time. */
export function fixtureRuntime(opts: RuntimeOptions = {}): Runtime {
  return createRuntime({ scriptPath: SERVICES_SCRIPT, startTime: Date.UTC(2026, 0, 5, 12, 0, 0), ...opts });
}

/**
 * The fixture script beside a manifest declaring these scopes (short names, e.g. 'script.send_mail';
 * undefined: none declared), over a workbook owned by owner@example.com.
 */
export function fixtureWithScopes(scopes: string[] | undefined, opts: RuntimeOptions = {}): Runtime {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-scopes-'));
  fs.copyFileSync(SERVICES_SCRIPT, path.join(dir, 'Code.js'));
  const manifest: Record<string, unknown> = { timeZone: 'Etc/UTC', runtimeVersion: 'V8' };
  if (scopes) manifest.oauthScopes = scopes.map((s) => 'https://www.googleapis.com/auth/' + s);
  fs.writeFileSync(path.join(dir, 'appsscript.json'), JSON.stringify(manifest));
  return createRuntime({
    scriptPath: path.join(dir, 'Code.js'),
    workbook: new Workbook({ owner: 'owner@example.com', id: 'doc-1' }),
    startTime: Date.UTC(2026, 0, 5, 12),
    ...opts,
  });
}

/**
 * A fixture runtime where the add-on is in use in the document, reached the way a user does it:
 * the spreadsheet opens (onOpen adds the menu) and the menu item runs. Custom functions work from then on.
 */
export function fixtureInUse(opts: RuntimeOptions = {}): Runtime {
  const rt = fixtureRuntime(opts);
  rt.open();
  rt.run('menuStart');
  return rt;
}

/** Runs script code in the fixture's global scope as one execution; `args` is visible to the code. */
export function evalIn(rt: Runtime, src: string, args: unknown = null, opts: Parameters<Runtime['run']>[2] = {}): any {
  return rt.run('evaluate', [src, args], opts);
}

/** The message of what `fn` throws (errors from the vm context fail instanceof checks). */
export function thrown(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return String((e as Error)?.message ?? e);
  }
  throw new Error('expected an exception, none was thrown');
}

export interface TestServer extends StandIn {
  base: string;
  port: number;
}

/** Starts fixtures/http-server.js in a child process and waits for its port. */
export async function startServer(): Promise<TestServer> {
  const child: ChildProcess = spawn(process.execPath, [path.join(FIXTURES, 'http-server.js')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const { url, stop } = await childStandIn(child, 'test server', 10_000, PRINTED_PORT);
  return { url, base: url, port: Number(new URL(url).port), stop };
}
