/**
 * The scan options as the user types them in the sidebar (money in currency units, discount in
 * percent) to the upload `attributes.options` of contract 2.1 (money in cents, discount in basis
 * points; conversions in contract/units.ts). Pure; nothing runs at load time.
 */
import type { components } from '../../../contract/schema';
import { findMarketplace } from '../../../contract/marketplaces';
import { parseMoney } from './cost';
import { isBlankCell } from '../sheet/safe';
import type { DecisionInput } from './decide';
import { percentInputToBps, wholeNumberInput, type OptionProblem } from './option-input';

/** Contract 2.1: the `attributes` part of the upload, as the API description defines it. */
export type UploadAttributes = components['schemas']['ScanAttributes'];
export type UploadOptions = UploadAttributes['options'];

/**
 * Sidebar input: numbers or the text typed; blanks mean "not set". The DecisionInput members
 * (months of cover, share rule, target ROI, largest discount) are the add-on's own: never uploaded.
 */
export interface ScanOptionsInput extends DecisionInput {
  /** Marketplace code ("US") or numeric id. */
  marketplace: string | number;
  name: string;
  /** Percent: 5, "5", "5%", "5,5 %" mean 5% -> 500 basis points. */
  supplierDiscount?: number | string | null;
  /** Currency amount per unit: 0.5 or "$0.50" -> 50 cents. */
  prepCost?: number | string | null;
  multipackPrepCost?: {
    enabled: boolean;
    firstN?: number | string | null;
    costForFirstN?: number | string | null;
    costForRest?: number | string | null;
  } | null;
  multipackOverride?: boolean;
  multipackOverrideQuantity?: number | string | null;
  pullHistoricalData?: boolean;
  /** Issue 36: a picture column in the result tab (default on); the add-on's own choice, never sent to the service. */
  pictures?: boolean;
}

function money(v: unknown, field: string, label: string, problems: OptionProblem[]): number | undefined {
  if (isBlankCell(v)) return undefined;
  const r = parseMoney(v, { allowZero: true, label });
  if (!r.ok) {
    problems.push({ field, message: r.message });
    return undefined;
  }
  return r.cents;
}

/**
 * The `options` object of the upload, or the problems. Only options that are set are included;
 * `header` is always true because the CSV we build has a header line; `custom_columns` are the
 * names of the CSV's custom columns.
 */
export function buildUploadOptions(
  input: ScanOptionsInput,
  customColumnNames: string[],
): { ok: true; options: UploadOptions } | { ok: false; problems: OptionProblem[] } {
  const problems: OptionProblem[] = [];
  const market = findMarketplace(input.marketplace);
  if (!market) problems.push({ field: 'marketplace', message: 'Unknown marketplace "' + String(input.marketplace) + '".' });
  const name = (input.name || '').trim();
  if (!name) problems.push({ field: 'name', message: 'Give the scan a name.' });

  const options: UploadOptions = { marketplace_id: market ? market.code : '', name, header: true };

  if (!isBlankCell(input.supplierDiscount)) {
    const bps = percentInputToBps(input.supplierDiscount as number | string);
    if (bps === null || bps < 0 || bps >= 10000) {
      problems.push({ field: 'supplierDiscount', message: 'Supplier discount must be a percent from 0 to below 100.' });
    } else if (bps > 0) options.discount_supplier = bps;
  }
  const prep = money(input.prepCost, 'prepCost', 'Prep cost', problems);
  if (prep !== undefined) options.prep_cost = prep;

  const mp = input.multipackPrepCost;
  if (mp) {
    if (mp.enabled) {
      const firstN = isBlankCell(mp.firstN) ? null : wholeNumberInput(mp.firstN as number | string, 1);
      if (firstN === null)
        problems.push({
          field: 'multipackPrepCost.firstN',
          message: 'Multipack prep cost: "first N" must be a whole number of 1 or more.',
        });
      const forFirst = money(mp.costForFirstN, 'multipackPrepCost.costForFirstN', 'Multipack prep cost for the first N', problems);
      const forRest = money(mp.costForRest, 'multipackPrepCost.costForRest', 'Multipack prep cost for the rest', problems);
      if (isBlankCell(mp.costForFirstN))
        problems.push({ field: 'multipackPrepCost.costForFirstN', message: 'Multipack prep cost: enter the cost for the first N units.' });
      options.multipack_prep_cost = { enabled: true, firstN: firstN || 0, costForFirstN: forFirst || 0, costForRest: forRest || 0 };
    } else {
      options.multipack_prep_cost = { enabled: false, firstN: 0, costForFirstN: 0, costForRest: 0 };
    }
  }
  if (input.multipackOverride) {
    const q = isBlankCell(input.multipackOverrideQuantity) ? null : wholeNumberInput(input.multipackOverrideQuantity as number | string, 1);
    if (q === null)
      problems.push({
        field: 'multipackOverrideQuantity',
        message: 'Multipack override: the quantity must be a whole number of 1 or more.',
      });
    options.multipack_override = true;
    options.multipack_override_quantity = q || 0;
  } else if (input.multipackOverride === false) {
    options.multipack_override = false;
  }
  if (input.pullHistoricalData !== undefined) options.pull_historical_data = !!input.pullHistoricalData;
  if (customColumnNames.length) options.custom_columns = customColumnNames.slice();
  return problems.length ? { ok: false, problems } : { ok: true, options };
}
