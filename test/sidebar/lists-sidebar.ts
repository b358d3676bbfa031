/**
 * The Lists view on the REAL add-on for one test file: the built bundle in the local runtime,
 * connected as one account to a local service on the runtime's clock, opened in the browser.
 */
import type { Runtime } from '../../emulator/gas';
import { Workbook } from '../../emulator/gas/spreadsheet';
import type { SpawnedService } from '../../emulator/service/spawn';
import { startServiceInWorker } from '../../emulator/service/worker';
import { listsRuntime, SharedClock, startClockedService, type ClockedService } from '../addon/lists-helpers';
import { connect, START } from '../addon/scanflow-helpers';
import { closeAll, openSidebar, type Sidebar } from './harness';

export interface ListsSidebar {
  svc: ClockedService;
  /** With `scans`: the service that makes and keeps the scans (in real time), behind `svc`. */
  scans?: SpawnedService;
  wb: Workbook;
  rt: Runtime;
  sb: Sidebar;
}

/**
 * The clocked service as a front door: the list areas on the runtime's clock, every other path
 * (scans and their results) passed on to `scans`.
 */
async function frontDoor(key: string, scans: SpawnedService): Promise<ClockedService> {
  const clock = new SharedClock(START);
  const door = await startServiceInWorker({ clock: clock.buffer, apiKeys: [key], forwardTo: scans.url });
  return { url: door.url, clock, stop: door.stop };
}

/**
 * Started before the file's tests (the returned object is filled in then), `prepare` (the
 * workbook's content, the document's records, the selection) run before the page opens; all of it
 * closed after the tests. With `scans` (a service that knows `key`), scans go to it.
 */
export function useListsSidebar(
  key: string,
  workbookName: string,
  prepare?: (wb: Workbook, rt: Runtime) => void | Promise<void>,
  scans?: () => Promise<SpawnedService>,
): ListsSidebar {
  const env = {} as ListsSidebar;
  beforeAll(async () => {
    env.scans = await scans?.();
    env.svc = env.scans ? await frontDoor(key, env.scans) : await startClockedService([key]);
    env.wb = new Workbook({ name: workbookName });
    env.rt = listsRuntime(env.wb, env.svc.clock);
    connect(env.rt, env.svc.url, key);
    await prepare?.(env.wb, env.rt);
    env.sb = await openSidebar((fn, args) => env.rt.scriptRun(fn, args), { view: 'lists' });
  });
  afterAll(async () => {
    try {
      await closeAll(env.sb, env.rt, env.svc);
    } finally {
      await env.scans?.stop();
    }
  });
  return env;
}
