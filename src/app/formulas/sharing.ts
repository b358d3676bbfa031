/**
 * setFormulaKeySharing(on): the owner lets the formulas of THIS spreadsheet use their key (or stops
 * it). Writes/deletes the share record of src/formulas/key.ts in the owner's user properties;
 * saveSettings (app/settings) rewrites it when the key or address changes.
 */
import { encodeFormulaShare, formulaSharePropertyName } from '../../formulas/key';
import type { SettingsView } from '../settings/protocol';
import { activeSpreadsheet, activeUserEmail, asSidebarCall, loadSettings, serviceSettings, userProperties } from '../services';
import { settingsView } from '../settings/settings';

/** Sidebar: the owner turns "Let formulas in this spreadsheet use my key" on or off. */
export function setFormulaKeySharing(on: boolean): SettingsView {
  return asSidebarCall(() => {
    const ss = activeSpreadsheet();
    const me = activeUserEmail();
    const owner = ss.getOwner() ? ss.getOwner()!.getEmail() : '';
    if (!me || me !== owner) {
      throw new Error(
        'Only the owner of this spreadsheet' +
          (owner ? ' (' + owner + ')' : '') +
          ' can let its formulas use their API key. Ask them to turn it on in Settings, or use "Convert selected column", which uses your own key.',
      );
    }
    const props = userProperties();
    const name = formulaSharePropertyName(ss.getId());
    const s = loadSettings();
    if (on) {
      // The owner's current key; none saved -> the sidebar opens Settings (marker via asSidebarCall).
      const service = serviceSettings(s);
      props.setProperty(name, encodeFormulaShare({ v: 1, apiKey: service.apiKey, baseUrl: service.baseUrl, marketplace: s.marketplace }));
    } else {
      props.deleteProperty(name);
    }
    return settingsView(s);
  });
}
