/**
 * Help (issue 32 item 10): the BUILT add-on's getHelp names every feature a seller meets in a week —
 * Negotiate, purchase orders, lists and schedules among them — and where to find each, by the menu
 * captions and sidebar tabs the add-on really has.
 */
import { Workbook } from '../../emulator/gas/spreadsheet';
import { MENU_ITEMS } from '../../src/entry/menu';
import { runtime } from './scanflow-helpers';

test('Help covers Negotiate, purchase orders, lists and schedules, each with where to find it (menu captions that exist)', async () => {
  const rt = runtime(new Workbook({ name: 'Prices' }));
  const help = rt.scriptRun('getHelp') as { steps: Array<{ title: string; text: string }> };
  await rt.stop();
  const step = (title: string) => help.steps.find((s) => s.title === title)?.text ?? '';
  const caption = (fn: string) => MENU_ITEMS.find((i) => i && i[1] === fn)![0];
  expect(step('Negotiate')).toContain('Extensions > Product Sourcing Scan > ' + caption('menuNegotiate'));
  expect(step('Purchase orders')).toContain('Extensions > Product Sourcing Scan > ' + caption('menuPurchaseOrder'));
  expect(step('Purchase orders')).toContain(caption('menuExportTabCsv'));
  expect(step('Lists')).toContain('Extensions > Product Sourcing Scan > ' + caption('menuSyncLists'));
  expect(step('Lists')).toMatch(/Lists tab here: Set up lists, then Sync now/);
  expect(step('Lists')).toContain(caption('menuUndoRowAction'));
  expect(step('Schedules')).toMatch(/"Scan this list again" on its card in New scan, or Settings > Remembered suppliers/);
  expect(step('Schedules')).toMatch(/paid like any other/);
});
