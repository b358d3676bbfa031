/**
 * The words of Settings that explain rather than act, sent with every SettingsView so that they cost
 * the sidebar page nothing (it is served on every open and its open time is measured by bench/sidebar-open.ts).
 */
import type { SettingsHelp } from './protocol';

export function settingsHelp(): SettingsHelp {
  return {
    about:
      "The add-on sends your price lists to the Product Sourcing Scan Service with your account's API key. Find it in the Scan Service's web app under Integrations > API Access, paste it here and press Save. It is kept in your own Google account for this add-on: never in the spreadsheet, and other editors cannot see it.",
    formulasNeedKey: 'They run once your key is saved.',
    webhooks: 'Notify your own address when a scan finishes.',
    noSuppliers: 'None yet: a scanned list is remembered for its next New scan.',
    forgetSupplier:
      "Each list's next New scan starts with these choices and its scheduled re-scans send them; a scan you start with other choices replaces them. Forget: the list's next New scan guesses its columns again and starts with the default options (Pictures on, the essential columns), and its re-scan schedule is removed (its scans and tabs stay).",
    convert:
      'Select the identifiers (one column, the header may be included). Plain values are written into the empty columns to its right — for columns too long for =ASIN_FROM_UPC() and the other formulas.',
    // The option as the server's messages and the formula cells name it.
    formulasLabel: 'Formulas in this spreadsheet run on my key',
    formulasOn: 'Formulas here now run on your key.',
    formulasOff: 'Formulas here no longer run on your key.',
    pressSave: ' Press Save to keep these settings.',
    nothingSaved: ' Nothing was saved.',
  };
}
