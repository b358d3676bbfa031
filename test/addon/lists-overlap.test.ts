/**
 * Issue 20, part 3: executions that really overlap (emulator/gas/interleave.ts). Google runs several
 * executions of a user's script at once (up to 30), so a second "Sync now" can start while the first
 * one is between two service calls. The add-on's document lock is tested against that, not against a
 * simulated holder: the second sync is refused with the add-on's message while the first holds the
 * lock, and nothing is sent twice or lost.
 */
import { Workbook } from '../../emulator/gas/spreadsheet';
import { interleave } from '../../emulator/gas/interleave';
import { connect } from './scanflow-helpers';
import { listAll, listsRuntime, startClockedService, type ClockedService } from './lists-helpers';

const KEYS = ['overlap-key-00-aaaaaaaaaaaaaaa', 'overlap-key-01-aaaaaaaaaaaaaaa'];
const BUSY = 'Another sync (or import) is running in this spreadsheet right now. Try again when it has finished.';
let svc: ClockedService;
beforeAll(async () => {
  svc = await startClockedService(KEYS);
}, 60_000);
afterAll(async () => {
  await svc?.stop();
});
afterEach(() => svc.clock.advance(61_000));

function setUp(key: string) {
  const wb = new Workbook({ name: 'Lists' });
  const rt = listsRuntime(wb, svc.clock);
  connect(rt, svc.url, key);
  rt.scriptRun('setUpLists');
  ['Acme', 'Bosch', 'Candle Co'].forEach((b, i) => {
    wb.type('Scan brand blocklist', `A${i + 2}`, 'US');
    wb.type('Scan brand blocklist', `B${i + 2}`, b);
  });
  return { wb, rt };
}
const byList = (r: any, id: string) => r.lists.find((l: any) => l.list === id);

test('a second "Sync now" starting while the first holds the document lock is refused with the add-on\'s message; the first completes, each brand sent once', async () => {
  const { rt } = setUp(KEYS[0]);
  const second = interleave(rt, {
    afterCalls: 1,
    when: () => rt.locks.isHeld('document'),
    run: () => rt.scriptRun('syncNow'),
  });
  const first = rt.scriptRun('syncNow') as any;
  expect(second.fired()).toBe(true);
  expect(String((second.outcome()!.error as Error).message)).toBe(BUSY);
  expect(byList(first, 'brands')).toMatchObject({ state: 'synced', toService: { added: 3 } });
  const brands = (await listAll(svc, KEYS[0], '/api/v3/brand-blocklist')).map((b) => b.name).sort();
  expect(brands).toEqual(['Acme', 'Bosch', 'Candle Co']);
  // both executions are recorded: the refused one failed, the first one ended well
  const records = rt.executions.filter((e) => e.functionName === 'syncNow');
  expect(records.map((e) => e.ok)).toEqual([false, true]);
  await rt.stop();
});

test('a sync that runs to its end before the first one takes the lock leaves the first nothing to send: nothing is sent twice', async () => {
  const { rt } = setUp(KEYS[1]);
  const early = interleave(rt, { afterCalls: 1, run: () => rt.scriptRun('syncNow') });
  const late = rt.scriptRun('syncNow') as any;
  expect(early.fired()).toBe(true);
  expect(byList(early.outcome()!.result, 'brands')).toMatchObject({ state: 'synced', toService: { added: 3 } });
  expect(byList(late, 'brands')).toMatchObject({ toService: { added: 0, changed: 0, deleted: 0 }, toSheet: { added: 0, deleted: 0 } });
  expect((await listAll(svc, KEYS[1], '/api/v3/brand-blocklist')).map((b) => b.name).sort()).toEqual(['Acme', 'Bosch', 'Candle Co']);
  await rt.stop();
});
