/**
 * One shape for starting and stopping every stand-in (emulator/stand-in.ts): `stop()` resolves only
 * once what was started has ended (its port closed, its child process gone), and a second call is
 * harmless. Checked on the Scan Service in this process, in a child process and in a worker thread.
 */
import { connect } from 'node:net';
import { start } from './helpers';
import { spawnService } from '../../emulator/service/spawn';
import { startServiceInWorker } from '../../emulator/service/worker';
import { SharedClock } from '../../emulator/gas/shared-clock';
import type { StandIn } from '../../emulator/stand-in';

/** Whether something accepts connections at `url`'s port on 127.0.0.1 right now. */
function accepting(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(Number(new URL(url).port), '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function expectStops(standIn: StandIn): Promise<void> {
  expect(await accepting(standIn.url)).toBe(true);
  await Promise.all([standIn.stop(), standIn.stop()]);
  expect(await accepting(standIn.url)).toBe(false);
  await expect(standIn.stop()).resolves.toBeUndefined();
}

test('the service started in this process: once stop() resolves its port is closed; stopping again is harmless', async () => {
  await expectStops(await start());
});

test('the service in a child process: once stop() resolves its port is closed and its process has exited', async () => {
  const svc = await spawnService();
  await expectStops(svc);
  expect(alive(svc.pid)).toBe(false);
});

test('the service in a worker thread: once stop() resolves its port is closed; stopping again is harmless', async () => {
  const svc = await startServiceInWorker({ clock: new SharedClock(Date.UTC(2026, 0, 15)).buffer, apiKeys: ['key-a'] });
  await expectStops(svc);
});
