/**
 * Whose key a formula uses (issue 5, "Whose key").
 *
 * Inside a custom function PropertiesService.getUserProperties() returns the spreadsheet OWNER's
 * user properties, whoever recalculates; an editor's own key is out of reach there. So:
 * - Formulas use only a key the owner has explicitly shared for formulas in THIS spreadsheet:
 *   Settings writes it, when the owner turns on "Formulas in this spreadsheet run on my key",
 *   into the owner's user properties under a name that includes the spreadsheet id
 *   (src/store/keys.ts formulaShareKey). The owner's ordinary key is never used by formulas, so no
 *   formula runs on a key that was not shared for this document, not even the owner's own.
 * - Without such a share every cell to convert shows NO_KEY_MESSAGE, which says what to do
 *   (ask the owner to allow it, or use "Convert selected column", which runs as the clicking user
 *   with their own key).
 * - Turning sharing off (or changing the key) in Settings rewrites or deletes that one property.
 * The record also carries the service address and the owner's default marketplace, so that a
 * formula needs one property read.
 */
import type { ServiceSettings } from '../api/client';
import type { PropertiesLike } from '../api/services';
import { formulaShareKey } from '../store/keys';
import { record } from '../store/records';

/** What Settings stores for one spreadsheet (JSON, far below the 9 KB per value). */
export interface FormulaShare {
  v: 1;
  apiKey: string;
  baseUrl: string;
  /** Marketplace code formulas use when none is given. */
  marketplace?: string;
}

export const formulaSharePropertyName = formulaShareKey;

/** The share as stored: any object reads (its members are checked where used); Settings writes a FormulaShare. */
export const FORMULA_SHARE = record<Partial<FormulaShare>, [string]>(formulaShareKey, {
  decode: (v) => (v && typeof v === 'object' ? (v as Partial<FormulaShare>) : null),
});

/** The value Settings writes when the owner turns sharing on. */
export function encodeFormulaShare(share: FormulaShare): string {
  return FORMULA_SHARE.encode(share, '');
}

export type FormulaSettings =
  | { ok: true; service: ServiceSettings; defaultMarketplace: string | undefined }
  | { ok: false; message: string; defaultMarketplace: string | undefined };

/** Reads the share a custom function sees (owner's user properties) for this spreadsheet. */
export function readFormulaSettings(
  ownerProps: PropertiesLike,
  spreadsheetId: string,
  fallbackBaseUrl: string,
  noKeyMessage: string,
): FormulaSettings {
  const share = FORMULA_SHARE.get(ownerProps, spreadsheetId);
  const defaultMarketplace = share && typeof share.marketplace === 'string' ? share.marketplace : undefined;
  if (!share || typeof share.apiKey !== 'string' || share.apiKey.trim() === '')
    return { ok: false, message: noKeyMessage, defaultMarketplace };
  const baseUrl = typeof share.baseUrl === 'string' && share.baseUrl.trim() !== '' ? share.baseUrl : fallbackBaseUrl;
  return { ok: true, service: { apiKey: share.apiKey.trim(), baseUrl }, defaultMarketplace };
}
