/**
 * setFormulaKeySharing(on): the owner lets the formulas of THIS spreadsheet run on their key (or
 * stops it). Who counts as the owner, and the share record, are ../settings/owner.ts's;
 * saveSettings (app/settings) also turns it on with the key ("formulasOnMyKey") and rewrites it
 * when the key or address changes.
 */
import type { SettingsView } from '../settings/protocol';
import { asSidebarCall, loadSettings } from '../context';
import { settingsView } from '../settings/settings';
import { formulaOwnership, mayShare, shareRefusal, writeFormulaShare } from '../settings/owner';

/** Sidebar: the owner turns "Formulas in this spreadsheet run on my key" on or off. */
export function setFormulaKeySharing(on: boolean): SettingsView {
  return asSidebarCall(() => {
    const o = formulaOwnership();
    if (!mayShare(o)) throw new Error(shareRefusal(o));
    const s = loadSettings();
    writeFormulaShare(on, s);
    return settingsView(s);
  });
}
