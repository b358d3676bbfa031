/**
 * The verdict of a result row (issue 36): can a seller buy this product today? One short word for
 * the sortable column, and the reasons in the seller's words for the cell's note. Pure: reads a
 * product row of the results answer tolerantly (unknown or missing members never throw).
 *
 * Order matters: a row that cannot go to FBA is never a plain buy, whatever its profit.
 */

type Product = Record<string, unknown>;

export type VerdictWord = "Can't send to FBA" | 'Blocked brand' | 'Check' | 'No profit' | 'Buy';

/** The verdict of a row Amazon will not take into FBA: the headline and the buy tabs leave such rows out. */
export const CANT_SEND: VerdictWord = "Can't send to FBA";

export interface Verdict {
  word: VerdictWord;
  /** One reason a line, for the cell's note; empty for a plain buy. */
  reasons: string[];
}

/**
 * Ineligibility codes in words. The API document (section 2.3) and the vendor's client name no
 * codes; these are the ones our service answers (emulator/service/catalog/README.md). An unknown
 * code is shown as the code itself, so nothing the service says is hidden.
 */
const INELIGIBLE_WORDS: Readonly<Record<string, string>> = {
  HAZMAT_REVIEW_REQUIRED: 'Amazon must review it as dangerous goods (hazmat) first',
  MELTABLE_OUT_OF_SEASON: 'meltable, and Amazon takes it in only in the cool season',
  ADULT_PRODUCT_RESTRICTED: 'adult product, restricted by Amazon',
  BRAND_APPROVAL_REQUIRED: 'the brand needs Amazon’s approval first',
};

const obj = (v: unknown): Record<string, unknown> | null =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

/** A code in the seller's words; an unknown one as the code (trimmed, length-capped: it is service text). */
export function ineligibleReason(code: string): string {
  const words = INELIGIBLE_WORDS[code.trim()];
  return words ?? `code ${code.trim().slice(0, 60)}`;
}

function fbaReasons(p: Product): string[] | null {
  const el = obj(p.inbound_eligibility);
  if (!el || el.eligible !== false) return null;
  const codes = Array.isArray(el.ineligible_codes)
    ? el.ineligible_codes.filter((c): c is string => typeof c === 'string' && c.trim() !== '')
    : [];
  const why = codes.length ? codes.map(ineligibleReason).join('; ') : 'no reason given by the service';
  return [`Amazon will not take it into FBA: ${why}.`];
}

function flagReasons(p: Product): string[] {
  const out: string[] = [];
  if (p.is_hazmat === true) out.push('Hazmat: dangerous goods, extra FBA fee and possible review.');
  if (p.is_meltable === true) out.push('Meltable: FBA takes it in only from October to April.');
  if (p.is_adult === true) out.push('Adult product: may need approval to sell.');
  const fees = obj(p.market_fees);
  const feeError = fees && typeof fees.error === 'string' ? fees.error.trim() : '';
  if (feeError) out.push(`Fees not computed (the service said: ${feeError.slice(0, 200)}), so profit is unknown.`);
  return out;
}

function profitOf(p: Product): number | null {
  const f = obj(p.financials);
  return f && typeof f.profit === 'number' && Number.isFinite(f.profit) ? f.profit : null;
}

/** The verdict of one product row. */
export function verdictOf(p: Product): Verdict {
  const fba = fbaReasons(p);
  const brand = p.is_brand_blocklisted === true ? ['The brand is on your blocklist.'] : [];
  const flags = flagReasons(p);
  if (fba) return { word: "Can't send to FBA", reasons: [...fba, ...brand, ...flags] };
  if (brand.length) return { word: 'Blocked brand', reasons: [...brand, ...flags] };
  if (flags.length) return { word: 'Check', reasons: flags };
  const profit = profitOf(p);
  if (profit === null) return { word: 'Check', reasons: ['Profit is unknown (no price or fees from the service).'] };
  if (profit <= 0) return { word: 'No profit', reasons: ['Profit per unit is zero or less at your cost.'] };
  return { word: 'Buy', reasons: [] };
}

/** The note text of a verdict cell ('' for a plain buy). */
export function verdictNote(v: Verdict): string {
  return v.reasons.join('\n');
}
