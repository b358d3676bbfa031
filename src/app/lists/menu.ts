/** The menu's "Sync lists now": the sidebar's sync, with the deletions to confirm asked in a dialog. */
import { activeSpreadsheet, spreadsheetUi } from '../../apps-script';
import { syncNow } from './server';
import type { SyncReport } from './protocol';

/** Extensions > Sync lists now. */
export function menuSyncLists(): void {
  const ui = spreadsheetUi();
  const ss = activeSpreadsheet();
  let r: SyncReport;
  try {
    r = syncNow(false);
  } catch (e) {
    ui.alert('Sync lists', e instanceof Error ? e.message : String(e), ui.ButtonSet.OK);
    return;
  }
  const blocked = r.lists.filter((l) => l.state === 'blocked');
  if (blocked.length) {
    const answer = ui.alert('Confirm deletions', blocked.map((l) => l.title + ': ' + l.message).join('\n'), ui.ButtonSet.YES_NO);
    if (answer === ui.Button.YES) r = syncNow(true);
  }
  ss.toast(
    r.lists
      .filter((l) => l.state !== 'not-set-up')
      .map((l) => l.title + ': ' + l.message)
      .join('\n') || 'No list is set up: open Lists in the sidebar and choose Set up.',
    r.message,
    10,
  );
}
