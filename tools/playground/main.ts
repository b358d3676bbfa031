/**
 * `npm run playground`: the add-on in a local spreadsheet page (see README.md in this folder).
 *
 *   npm run playground -- [--port N] [--workbook in.xlsx|in.csv] [--no-open]
 */
import { spawn, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { parseArgs } from '../local';
import { startPlayground } from './server';

/** A desktop browser can be opened only with xdg-open and a display; otherwise the address is enough. */
function openBrowser(url: string): boolean {
  if (process.platform !== 'linux' || !(process.env.DISPLAY || process.env.WAYLAND_DISPLAY)) return false;
  if (spawnSync('sh', ['-c', 'command -v xdg-open'], { stdio: 'ignore' }).status !== 0) return false;
  try {
    const child = spawn('xdg-open', [url], { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
    return true;
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  const a = parseArgs(['playground', ...process.argv.slice(2)]);
  const port = a.flags.port !== undefined ? Number(a.flags.port) : 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port ${a.flags.port}: a port number (0 picks a free one)`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping…`);
    pg.stop().then(
      () => process.exit(0),
      (e) => {
        console.error(`error while stopping: ${(e as Error).message}`);
        process.exit(1);
      },
    );
  };
  const onInt = () => stop('SIGINT');
  const onTerm = () => stop('SIGTERM');
  const handle = (on: boolean) => {
    for (const [signal, f] of [['SIGINT', onInt] as const, ['SIGTERM', onTerm] as const]) {
      if (on) process.on(signal, f);
      else process.off(signal, f);
    }
  };
  // While a dialog of the add-on waits for its answer this thread is blocked and no handler could
  // run: without one, Ctrl-C ends the process at once (a terminal's Ctrl-C reaches the service too,
  // which stops itself).
  const pg = await startPlayground({
    port,
    workbook: a.flags.workbook ? resolve(a.flags.workbook) : undefined,
    onWaiting: (waiting) => handle(!waiting),
  });
  console.log(`playground on ${pg.url}`);
  console.log('It listens on 127.0.0.1 only (this machine); the page loads nothing from the internet.');
  console.log(`Local Scan Service: ${pg.serviceUrl}. Ctrl-C stops both.`);
  if (a.flags['no-open'] !== 'true' && openBrowser(pg.url)) console.log('Opened it in your browser.');
  handle(true);
}

main().catch((e) => {
  console.error(`error: ${(e as Error).message}`);
  process.exit(2);
});
