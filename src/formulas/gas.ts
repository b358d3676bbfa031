/**
 * Binds the real Apps Script services to the formulas' logic. Called at the start of each formula
 * call (never at load time). The only file of src/formulas that touches Apps Script globals.
 */
import type { FormulaDeps } from './engine';
import { waitAwareClock } from './clock';
import { readFormulaSettings } from './key';
import { NO_KEY_MESSAGE } from './messages';

export function gasFormulaDeps(): FormulaDeps {
  const clock = waitAwareClock(
    () => Date.now(),
    (ms: number) => Utilities.sleep(ms),
  );
  return {
    fetcher: UrlFetchApp,
    // The document cache: shared by everyone whose formulas use this document's shared key.
    cache: CacheService.getDocumentCache(),
    sleep: clock.sleep,
    now: clock.now,
    startedAt: clock.now(),
    settings: () =>
      readFormulaSettings(PropertiesService.getUserProperties(), SpreadsheetApp.getActiveSpreadsheet().getId(), ADDON_DEFAULT_SERVICE_URL, NO_KEY_MESSAGE),
  };
}
