/**
 * Units of the Scan Service, in one place (contract section 1): money is integer cents,
 * percentages (margin, ROI, discounts) are integer basis points (3000 = 30%).
 * The sheet shows money as currency numbers and percentages as fractions under a percent format.
 *
 * Money is converted through decimal TEXT, never through float arithmetic on the amount, so that
 * 0.1 + 0.2 or 1.005 end up as the cents a person would write (30, 101), not 30.000000000000004.
 * Pure functions; nothing runs at load time.
 */

/** Largest cents value we accept: well inside Number.MAX_SAFE_INTEGER (a trillion currency units). */
export const MAX_CENTS = 100_000_000_000_000;

/**
 * Exact cents of a plain decimal text "1299", "1299.5", "0.005", "-3.10" (no separators or symbols:
 * cost.ts strips those first). Rounds half away from zero to whole cents. Returns null for anything else
 * or when the amount is beyond MAX_CENTS.
 */
export function decimalTextToCents(text: string): number | null {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text.trim());
  if (!m || (m[2] === '' && (m[3] === undefined || m[3] === ''))) return null;
  const sign = m[1] === '-' ? -1 : 1;
  const intPart = m[2].replace(/^0+(?=\d)/, '') || '0';
  const frac = (m[3] || '') + '000';
  if (intPart.length > 15) return null;
  let cents = Number(intPart) * 100 + Number(frac.slice(0, 2));
  // Round half up on the third decimal digit (later digits only matter for an exact .5, which
  // half-up already rounds up).
  if (Number(frac[2]) >= 5) cents += 1;
  if (cents > MAX_CENTS) return null;
  return sign * cents || 0;
}

/**
 * Cents of an amount held as a JavaScript number (what getValues returns, what a sidebar sends).
 * The number is first written with 15 significant digits, which removes binary artefacts
 * (0.1 + 0.2 -> "0.3", 1.005 -> "1.005"), then rounded exactly. Null for NaN, Infinity, too large.
 */
export function amountToCents(amount: number): number | null {
  if (typeof amount !== 'number' || !isFinite(amount)) return null;
  return decimalTextToCents(plainDecimal(amount));
}

/** Amount (a number for a currency-formatted cell) of integer cents: 129900 -> 1299. */
export function centsToAmount(cents: number): number {
  // Division of an integer by 100 gives the nearest double to the decimal amount, which is
  // exactly what Sheets shows under a 2-decimal format.
  return cents / 100;
}

/** Decimal text with exactly two decimals of integer cents: 129900 -> "1299.00", -5 -> "-0.05". */
export function centsToDecimalText(cents: number): string {
  const c = Math.round(cents);
  const abs = Math.abs(c);
  const whole = Math.floor(abs / 100);
  const frac = abs % 100;
  return (c < 0 ? '-' : '') + String(whole) + '.' + (frac < 10 ? '0' : '') + String(frac);
}

/** Fraction of basis points, for a cell under a percent format: 3000 -> 0.3. */
export function bpsToFraction(bps: number): number {
  return bps / 10000;
}

/** Basis points of a fraction (0.3 -> 3000), rounded to whole basis points; null when not finite. */
export function fractionToBps(fraction: number): number | null {
  if (typeof fraction !== 'number' || !isFinite(fraction)) return null;
  // Through text for the same reason as money: 0.07 * 10000 is 700.0000000000001.
  const cents = decimalTextToCents(plainDecimal(fraction * 100));
  return cents === null ? null : cents;
}

/** Basis points of a percent number (12.5 -> 1250); null when not finite. */
export function percentToBps(percent: number): number | null {
  if (typeof percent !== 'number' || !isFinite(percent)) return null;
  return decimalTextToCents(plainDecimal(percent));
}

/** Percent number of basis points: 1250 -> 12.5. */
export function bpsToPercent(bps: number): number {
  return bps / 100;
}

/**
 * A finite number as plain decimal text with at most 15 significant digits and no exponent:
 * 1e-7 -> "0.0000001", 0.30000000000000004 -> "0.3", 1e21 -> "1000000000000000000000".
 */
export function plainDecimal(n: number): string {
  if (n === 0) return '0';
  const s = n.toPrecision(15); // e.g. "1.29900000000000e+3" or "0.300000000000000"
  const m = /^(-?)(\d)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(s);
  if (!m) return String(n);
  const sign = m[1];
  if (m[4] === undefined) {
    // Fixed notation from toPrecision: strip trailing zeros of the fraction.
    return (
      sign +
      s
        .slice(sign.length)
        .replace(/(\.\d*?)0+$/, '$1')
        .replace(/\.$/, '')
    );
  }
  const digits = m[2] + (m[3] || '');
  const exp = Number(m[4]);
  let out: string;
  if (exp >= 0) {
    out = digits.length > exp + 1 ? digits.slice(0, exp + 1) + '.' + digits.slice(exp + 1) : digits + '0'.repeat(exp + 1 - digits.length);
  } else {
    out = '0.' + '0'.repeat(-exp - 1) + digits;
  }
  if (out.indexOf('.') >= 0) out = out.replace(/0+$/, '').replace(/\.$/, '');
  return sign + out;
}

/**
 * Lengths and weights: the service's dimensions are inches and pounds (contract section 1), which
 * is what US sellers read; the sheet shows them as they come, under these units' names.
 */
export const LENGTH_UNIT = 'in';
export const WEIGHT_UNIT = 'lb';

/**
 * A Date of a Unix timestamp in seconds (inbound_eligibility.updated_at), for a cell under a date
 * format: Sheets shows it in the spreadsheet's time zone. Null for anything that is no timestamp.
 */
export function unixSecondsToDate(seconds: unknown): Date | null {
  if (typeof seconds !== 'number' || !isFinite(seconds) || seconds <= 0) return null;
  return new Date(Math.round(seconds * 1000));
}
