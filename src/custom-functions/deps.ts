/**
 * Binds the real Apps Script services to the formulas' logic. Called at the start of each formula
 * call (never at load time). The only file of src/formulas that touches Apps Script globals.
 */
import type { FormulaDeps } from './engine';
import { readFormulaSettings } from './key';
import { NO_KEY_MESSAGE, SHARED_DRIVE_NO_KEY_MESSAGE } from './messages';

export function gasFormulaDeps(): FormulaDeps {
  const startedAt = Date.now();
  return {
    fetcher: UrlFetchApp,
    // The document cache: shared by everyone whose formulas use this document's shared key.
    cache: CacheService.getDocumentCache(),
    sleep: (ms: number) => Utilities.sleep(ms),
    now: () => Date.now(),
    startedAt,
    settings: () => {
      const ss = SpreadsheetApp.getActiveSpreadsheet();
      const read = readFormulaSettings(PropertiesService.getUserProperties(), ss.getId(), ADDON_DEFAULT_SERVICE_URL, NO_KEY_MESSAGE);
      // No share: in a shared drive (no owner) none can exist, and the cell says so instead.
      if (!read.ok && ss.getOwner() === null) return { ...read, message: SHARED_DRIVE_NO_KEY_MESSAGE };
      return read;
    },
  };
}
