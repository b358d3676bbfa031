/**
 * Money cells of a supplier sheet (cost, MAP, and the sidebar's money inputs) to EXACT amounts:
 * integer cents plus the decimal text the upload CSV carries ("1299.00"). Never float arithmetic.
 * Pure; nothing runs at load time.
 *
 * Separator rule (text cells; number cells need none):
 * - Currency symbols and codes ($, €, £, ¥, ₹, ₺, kr, zł, USD, EUR, CA$ ...) at either end and
 *   spaces are dropped; "(12.00)" and a leading or trailing minus mean negative.
 * - Both "." and "," present: the LAST one is the decimal separator, the other groups thousands
 *   ("1,299.00", "1.299,00"). Groups must be 3 digits, otherwise the text is refused.
 * - One separator appearing several times groups thousands ("1,299,000").
 * - One separator appearing once: it is the decimal separator, unless exactly 3 digits follow it and
 *   digits other than a lone 0 precede it ("1,299", "1.299"), which is ambiguous. Then the column's
 *   convention decides (detectDecimalSeparator over the whole column, passed as `decimal`); with no
 *   evidence, "," is read as thousands ("1,299" -> 1299.00, the US habit) and "." as decimal
 *   ("1.299" -> 1.30, rounded), and the result says `ambiguous: true` so the preview can show it.
 * - More than 2 decimals are rounded half up to whole cents (`rounded: true`).
 */
import { amountToCents, centsToDecimalText, decimalTextToCents, MAX_CENTS } from '../../../contract/units';
import { cellText } from '../ids/identify';
import { quoteCell } from '../ids/quote';

export type DecimalSeparator = '.' | ',';

export type MoneyFailReason = 'blank' | 'not-a-number' | 'negative' | 'zero' | 'too-large';

export interface MoneyOk {
  ok: true;
  /** Integer cents. */
  cents: number;
  /** Two-decimal text for the upload: "1299.00". */
  decimal: string;
  /** Digits beyond cents were rounded away (1.299 -> 1.30). */
  rounded?: boolean;
  /** The separators could be read two ways; the column's convention or the default decided. */
  ambiguous?: boolean;
  /** The cell as text. */
  original: string;
}

export interface MoneyFail {
  ok: false;
  reason: MoneyFailReason;
  message: string;
  original: string;
}

export type MoneyResult = MoneyOk | MoneyFail;

export interface MoneyOptions {
  /** The column's decimal separator when known (settles "1,299"); see detectDecimalSeparator. */
  decimal?: DecimalSeparator | null;
  /** Accept 0 (prep costs, MAP). A product cost of 0 is refused. Default false. */
  allowZero?: boolean;
  /** Word used in messages: "Cost", "MAP", "Prep cost". Default "Cost". */
  label?: string;
}

const CURRENCY_WORDS = [
  'US$',
  'CA$',
  'MX$',
  'A$',
  'AU$',
  'S$',
  'E£',
  'R$',
  'kr.',
  'kr',
  'zł',
  'zl',
  'Rs.',
  'Rs',
  'USD',
  'EUR',
  'GBP',
  'CAD',
  'MXN',
  'SEK',
  'PLN',
  'EGP',
  'TRY',
  'INR',
  'JPY',
  'AUD',
  'SGD',
  'CHF',
  'CNY',
  'RMB',
  'TL',
];
const CURRENCY_SYMBOLS = /^[$€£¥₹₺￥]+|[$€£¥₹₺￥]+$/g;

/**
 * The currencies (ISO 4217) a money text's mark may denote: "1.299,00 €" -> ['EUR'], "$12" -> every
 * dollar of a marketplace; null when the text carries no mark. A prefixed mark ("CA$") is read before
 * the bare one it ends in. Which currency a marketplace sells in is contract/marketplaces.ts's.
 */
const MARK_CURRENCIES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['US$', ['USD']],
  ['CA$', ['CAD']],
  ['MX$', ['MXN']],
  ['AU$', ['AUD']],
  ['A$', ['AUD']],
  ['S$', ['SGD']],
  ['E£', ['EGP']],
  ['R$', ['BRL']],
  ['kr.', ['SEK', 'NOK', 'DKK']],
  ['kr', ['SEK', 'NOK', 'DKK']],
  ['zł', ['PLN']],
  ['zl', ['PLN']],
  ['Rs.', ['INR']],
  ['Rs', ['INR']],
  ['TL', ['TRY']],
  ['RMB', ['CNY']],
  ['$', ['USD', 'CAD', 'MXN', 'AUD', 'SGD']],
  ['€', ['EUR']],
  ['£', ['GBP', 'EGP']],
  ['¥', ['JPY', 'CNY']],
  ['￥', ['JPY', 'CNY']],
  ['₹', ['INR']],
  ['₺', ['TRY']],
];
const ISO_CODES = ['USD', 'EUR', 'GBP', 'CAD', 'MXN', 'SEK', 'PLN', 'EGP', 'TRY', 'INR', 'JPY', 'AUD', 'SGD', 'CHF', 'CNY'];

export function moneyCurrencies(text: string): readonly string[] | null {
  const s = text.replace(/[\s\u00a0\u2007\u202f()+\-\u2212]/g, '');
  const lower = s.toLowerCase();
  for (const code of ISO_CODES) if (lower.startsWith(code.toLowerCase()) || lower.endsWith(code.toLowerCase())) return [code];
  for (const [mark, codes] of MARK_CURRENCIES) {
    const m = mark.toLowerCase();
    if (lower.startsWith(m) || lower.endsWith(m)) return codes;
  }
  return null;
}

/** A product cost: positive, exact cents. */
export function parseCost(value: unknown, options: MoneyOptions = {}): MoneyResult {
  return parseMoney(value, { label: 'Cost', ...options });
}

/** Any money cell or input: see the module comment for the rules. */
export function parseMoney(value: unknown, options: MoneyOptions = {}): MoneyResult {
  const label = options.label || 'Cost';
  const original = cellText(value);
  if (value === null || value === undefined || (typeof value === 'string' && value.trim() === '')) {
    return fail('blank', label + ' is empty.', '');
  }
  let cents: number | null;
  let rounded = false;
  let ambiguous = false;
  if (typeof value === 'number') {
    cents = amountToCents(value);
    if (cents === null)
      return fail(isFinite(value) ? 'too-large' : 'not-a-number', label + ' ' + quoteCell(original) + ' is not a usable amount.', original);
    // Compare with the cents the number denotes, to tell whether sub-cent digits were dropped.
    rounded = Math.abs(value * 100 - cents) > 1e-6 * Math.max(1, Math.abs(value));
  } else if (typeof value === 'string') {
    const read = readAmountText(value, options.decimal || null);
    if (read === 'too-large') return fail('too-large', label + ' ' + quoteCell(original) + ' is too large.', original);
    if (read === null) return fail('not-a-number', label + ' ' + quoteCell(original.trim()) + ' is not an amount.', original);
    cents = decimalTextToCents(read.text);
    if (cents === null) return fail('too-large', label + ' ' + quoteCell(original) + ' is too large.', original);
    rounded = /\.\d\d\d*[1-9]/.test(read.text);
    ambiguous = read.ambiguous;
  } else {
    return fail('not-a-number', label + ' ' + quoteCell(original) + ' is not an amount.', original);
  }
  if (cents < 0) return fail('negative', label + ' ' + quoteCell(original) + ' is negative.', original);
  if (cents === 0 && !options.allowZero) return fail('zero', label + ' ' + quoteCell(original) + ' is zero.', original);
  if (cents > MAX_CENTS) return fail('too-large', label + ' ' + quoteCell(original) + ' is too large.', original);
  const out: MoneyOk = { ok: true, cents, decimal: centsToDecimalText(cents), original };
  if (rounded) out.rounded = true;
  if (ambiguous) out.ambiguous = true;
  return out;
}

/**
 * The decimal separator a column of money texts uses, from the cells that show it unambiguously
 * ("12,50", "1.299,00", "1,299.00", "1.299.000"); null when none does or the evidence is split evenly.
 * Number cells carry no evidence.
 */
export function detectDecimalSeparator(values: readonly unknown[]): DecimalSeparator | null {
  let dot = 0;
  let comma = 0;
  for (const v of values) {
    if (typeof v !== 'string') continue;
    const s = stripDecorations(v);
    if (s === null) continue;
    const ev = separatorEvidence(s.body);
    if (ev === '.') dot++;
    else if (ev === ',') comma++;
  }
  if (dot === comma) return null;
  return dot > comma ? '.' : ',';
}

function separatorEvidence(s: string): DecimalSeparator | null {
  const lastDot = s.lastIndexOf('.');
  const lastComma = s.lastIndexOf(',');
  if (lastDot >= 0 && lastComma >= 0) return lastDot > lastComma ? '.' : ',';
  const sep = lastDot >= 0 ? '.' : lastComma >= 0 ? ',' : null;
  if (!sep) return null;
  const count = s.split(sep).length - 1;
  if (count > 1) return sep === '.' ? ',' : '.';
  const after = s.length - s.indexOf(sep) - 1;
  if (after !== 3 && after > 0) return sep;
  return null;
}

interface Stripped {
  body: string;
  negative: boolean;
}

/** Drops currency marks, spaces, sign and parentheses; null when something else is in the way. */
function stripDecorations(raw: string): Stripped | null {
  let s = raw.replace(/[\s\u00a0\u2007\u202f]/g, '');
  let negative = false;
  if (/^\(.*\)$/.test(s)) {
    negative = true;
    s = s.slice(1, -1);
  }
  // Sign may come before or after the currency mark: "-$5", "$-5", "5-".
  for (let pass = 0; pass < 3; pass++) {
    const before = s;
    if (/^[-\u2212]/.test(s)) {
      negative = true;
      s = s.slice(1);
    } else if (/[-\u2212]$/.test(s)) {
      negative = true;
      s = s.slice(0, -1);
    } else if (s[0] === '+') s = s.slice(1);
    for (const w of CURRENCY_WORDS) {
      const lw = w.toLowerCase();
      if (s.toLowerCase().startsWith(lw)) s = s.slice(w.length);
      if (s.toLowerCase().endsWith(lw)) s = s.slice(0, -w.length);
    }
    s = s.replace(CURRENCY_SYMBOLS, '');
    if (s === before) break;
  }
  // Swiss grouping: 1'299.00
  s = s.replace(/(\d)['\u2019](?=\d{3}\b)/g, '$1');
  if (!/^[\d.,]*\d[\d.,]*$/.test(s)) return null;
  return { body: s, negative };
}

/** Plain decimal text ("-1299.5") of an amount text, or null when it is not one. */
function readAmountText(raw: string, hint: DecimalSeparator | null): { text: string; ambiguous: boolean } | null | 'too-large' {
  const st = stripDecorations(raw);
  if (!st) return null;
  const s = st.body;
  let decimalSep: DecimalSeparator | null = null;
  let ambiguous = false;
  const hasDot = s.indexOf('.') >= 0;
  const hasComma = s.indexOf(',') >= 0;
  if (hasDot && hasComma) {
    decimalSep = s.lastIndexOf('.') > s.lastIndexOf(',') ? '.' : ',';
  } else if (hasDot || hasComma) {
    const sep: DecimalSeparator = hasDot ? '.' : ',';
    const count = s.split(sep).length - 1;
    if (count > 1) decimalSep = null;
    else {
      const idx = s.indexOf(sep);
      const after = s.length - idx - 1;
      const before = s.slice(0, idx);
      if (after === 3 && before !== '' && before !== '0') {
        ambiguous = hint === null;
        decimalSep = hint !== null ? hint : sep === ',' ? null : '.';
        if (hint !== null && hint !== sep) decimalSep = null; // the other one is the decimal: this groups
      } else decimalSep = sep;
    }
  }
  const groupSep = decimalSep === '.' ? ',' : decimalSep === ',' ? '.' : hasDot ? '.' : hasComma ? ',' : null;
  let intPart = s;
  let fracPart = '';
  if (decimalSep !== null) {
    const i = s.lastIndexOf(decimalSep);
    intPart = s.slice(0, i);
    fracPart = s.slice(i + 1);
    if (fracPart.indexOf('.') >= 0 || fracPart.indexOf(',') >= 0) return null;
  }
  if (groupSep !== null && intPart.indexOf(groupSep) >= 0) {
    const groups = intPart.split(groupSep);
    if (!/^\d{1,3}$/.test(groups[0]) || groups.slice(1).some((g) => !/^\d{3}$/.test(g))) return null;
    intPart = groups.join('');
  }
  if (!/^\d*$/.test(intPart) || !/^\d*$/.test(fracPart) || intPart + fracPart === '') return null;
  if (intPart.replace(/^0+/, '').length > 13) return 'too-large';
  return { text: (st.negative ? '-' : '') + (intPart || '0') + (fracPart ? '.' + fracPart : ''), ambiguous };
}

function fail(reason: MoneyFailReason, message: string, original: string): MoneyFail {
  return { ok: false, reason, message, original };
}
