/**
 * The Lists view on the REAL add-on for one test file: the built bundle in the local runtime,
 * connected as one account to a local service on the runtime's clock, opened in the browser.
 */
import type { Runtime } from '../../emulator/gas';
import { Workbook } from '../../emulator/gas/spreadsheet';
import { listsRuntime, startClockedService, type ClockedService } from '../addon/lists-helpers';
import { connect } from '../addon/scanflow-helpers';
import { closeAll, openSidebar, type Sidebar } from './harness';

export interface ListsSidebar {
  svc: ClockedService;
  wb: Workbook;
  rt: Runtime;
  sb: Sidebar;
}

/**
 * Started before the file's tests (the returned object is filled in then), `prepare` (the
 * workbook's content, the document's records, the selection) run before the page opens; all of it
 * closed after the tests.
 */
export function useListsSidebar(key: string, workbookName: string, prepare?: (wb: Workbook, rt: Runtime) => void): ListsSidebar {
  const env = {} as ListsSidebar;
  beforeAll(async () => {
    env.svc = await startClockedService([key]);
    env.wb = new Workbook({ name: workbookName });
    env.rt = listsRuntime(env.wb, env.svc.clock);
    connect(env.rt, env.svc.url, key);
    prepare?.(env.wb, env.rt);
    env.sb = await openSidebar((fn, args) => env.rt.scriptRun(fn, args), { view: 'lists' });
  });
  afterAll(() => closeAll(env.sb, env.rt, env.svc));
  return env;
}
