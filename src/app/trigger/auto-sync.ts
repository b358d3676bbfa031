/**
 * The user's automatic-sync choice for this document (user property `AUTO_PREFIX` + spreadsheet id).
 * Its own module so that the hourly trigger's removal (src/app/trigger/install.ts), which keeps the
 * trigger while the sync is on, reads it without importing the sync (../lists/).
 */
import { activeSpreadsheet, userProperties } from '../../apps-script';
import { AUTO_PREFIX } from '../../store/lists';

export function autoKey(): string {
  return AUTO_PREFIX + activeSpreadsheet().getId();
}

export function autoSyncEnabled(): boolean {
  return userProperties().getProperty(autoKey()) === '1';
}
