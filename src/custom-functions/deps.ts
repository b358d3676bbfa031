/**
 * The formulas' services, from the one binder (src/apps-script.ts). Called at the start of each
 * formula call (never at load time).
 */
import { activeSpreadsheet, documentCache, now, sleep, urlFetcher, userProperties } from '../apps-script';
import type { FormulaDeps } from './engine';
import { readFormulaSettings } from './key';
import { NO_KEY_MESSAGE, SHARED_DRIVE_NO_KEY_MESSAGE } from './messages';

export function gasFormulaDeps(): FormulaDeps {
  const startedAt = Date.now();
  return {
    fetcher: urlFetcher(),
    // The document cache: shared by everyone whose formulas use this document's shared key.
    cache: documentCache(),
    sleep,
    now,
    startedAt,
    settings: () => {
      const ss = activeSpreadsheet();
      const read = readFormulaSettings(userProperties(), ss.getId(), ADDON_DEFAULT_SERVICE_URL, NO_KEY_MESSAGE);
      // No share: in a shared drive (no owner) none can exist, and the cell says so instead.
      if (!read.ok && ss.getOwner() === null) return { ...read, message: SHARED_DRIVE_NO_KEY_MESSAGE };
      return read;
    },
  };
}
