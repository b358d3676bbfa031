/**
 * Integer arithmetic and the reading of amounts from supplier cells. Money is integer cents and
 * rates are integer basis points everywhere (document section 1); the one rounding rule of the
 * financial model lives here (FINANCIAL-MODEL.md, "Rounding").
 */

/** a / b rounded to the nearest integer, halves away from zero. b must be > 0. Exact for any size. */
export function roundDiv(a: bigint | number, b: bigint | number): number {
  const A = BigInt(a);
  const B = BigInt(b);
  if (B <= 0n) throw new RangeError('roundDiv: divisor must be positive');
  const neg = A < 0n;
  const q = ((neg ? -A : A) * 2n + B) / (2n * B);
  return Number(neg ? -q : q);
}

/** a / b rounded up (b > 0, a >= 0). */
export function ceilDiv(a: number, b: number): number {
  return Math.floor((a + b - 1) / b);
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

const CURRENCY = /^(?:[$€£¥₹₺]|US\$|CA\$|C\$|A\$|S\$|E£|MX\$|USD|CAD|GBP|EUR|JPY|SEK|PLN|AUD|INR|TRY|SGD|EGP|MXN|KR|ZŁ|ZL)/i;
const CURRENCY_END = /(?:[$€£¥₹₺]|USD|CAD|GBP|EUR|JPY|SEK|PLN|AUD|INR|TRY|SGD|EGP|MXN|KR|ZŁ|ZL)$/i;

/**
 * Reads a decimal amount (a price or cost in the marketplace currency) into cents.
 * Accepted: "12.50", "12.5", "12", "$12.50", "$1,299.00", "1.299,00 €", "12,50", "1 299,00",
 * "USD 12.50". Currency symbols/codes are dropped, not checked. Decimal separator: when both "."
 * and "," occur, the last one; a lone "," followed by exactly 3 digits groups thousands
 * ("1,299" = 1299.00), otherwise a lone "," is the decimal mark; a lone "." is always decimal,
 * and more than two decimals round half up to the cent ("2.345" = 2.35). Negative amounts,
 * words ("call", "N/A") and empty cells are refused with a reason.
 */
export function parseMoney(raw: string): Parsed<number> {
  let s = raw.trim();
  if (s === '') return { ok: false, reason: 'The amount is empty.' };
  s = s.replace(/[\s\u00a0\u202f']/g, '');
  for (let i = 0; i < 2; i++) s = s.replace(CURRENCY, '').replace(CURRENCY_END, '');
  if (/^-|^\(.*\)$|-$/.test(s)) return { ok: false, reason: `"${raw.trim()}" is negative.` };
  if (!/^[\d.,]+$/.test(s) || !/\d/.test(s)) return { ok: false, reason: `"${raw.trim()}" is not an amount.` };
  const lastDot = s.lastIndexOf('.');
  const lastComma = s.lastIndexOf(',');
  let intPart: string;
  let frac: string;
  if (lastDot >= 0 && lastComma >= 0) {
    const dec = lastDot > lastComma ? '.' : ',';
    const group = dec === '.' ? ',' : '.';
    const at = s.lastIndexOf(dec);
    intPart = s.slice(0, at);
    frac = s.slice(at + 1);
    if (
      intPart.includes(dec) ||
      !/^\d{1,3}(?:[.,]\d{3})*$/.test(intPart) ||
      intPart
        .replace(/\d/g, '')
        .split('')
        .some((c) => c !== group)
    ) {
      return { ok: false, reason: `"${raw.trim()}" mixes separators in a way that is not an amount.` };
    }
    intPart = intPart.split(group).join('');
  } else if (lastComma >= 0) {
    const parts = s.split(',');
    if (parts.length > 2 || /^\d{3}$/.test(parts[1] ?? '')) {
      if (!/^\d{1,3}(?:,\d{3})+$/.test(s)) return { ok: false, reason: `"${raw.trim()}" is not an amount.` };
      intPart = parts.join('');
      frac = '';
    } else {
      intPart = parts[0];
      frac = parts[1];
    }
  } else if (lastDot >= 0) {
    const parts = s.split('.');
    if (parts.length > 2) {
      if (!/^\d{1,3}(?:\.\d{3})+$/.test(s)) return { ok: false, reason: `"${raw.trim()}" is not an amount.` };
      intPart = parts.join('');
      frac = '';
    } else {
      intPart = parts[0];
      frac = parts[1];
    }
  } else {
    intPart = s;
    frac = '';
  }
  if (!/^\d*$/.test(intPart) || !/^\d*$/.test(frac) || (intPart === '' && frac === '')) {
    return { ok: false, reason: `"${raw.trim()}" is not an amount.` };
  }
  if (intPart.length > 12) return { ok: false, reason: `"${raw.trim()}" is too large.` };
  // Cents with the rest of the fraction rounded half up, all in integers.
  const whole = BigInt(intPart || '0') * 100n + BigInt((frac + '00').slice(0, 2));
  const rest = frac.slice(2);
  const up = rest !== '' && rest.charCodeAt(0) >= 53 ? 1n : 0n;
  return { ok: true, value: Number(whole + up) };
}

/**
 * Reads a discount cell into basis points: "500" is 500 bp (5%), the service's unit; "5%" or
 * "5.5 %" is a percentage (550 bp). Must be 0 to 10000 bp.
 */
export function parseBasisPoints(raw: string): Parsed<number> {
  const s = raw.trim().replace(/\s+/g, '');
  let bp: number;
  const pct = /^(\d+(?:[.,]\d+)?)%$/.exec(s);
  if (pct) {
    const [i, f = ''] = pct[1].replace(',', '.').split('.');
    // percent with up to 2 decimals is exact bp; further decimals round half up
    bp = Number(i) * 100 + Number((f + '00').slice(0, 2)) + (f.length > 2 && f.charCodeAt(2) >= 53 ? 1 : 0);
  } else if (/^\d+$/.test(s)) {
    bp = Number(s);
  } else {
    return { ok: false, reason: `"${raw.trim()}" is not a discount (basis points like 500, or a percentage like 5%).` };
  }
  if (bp > 10000) return { ok: false, reason: `"${raw.trim()}" is more than 100%.` };
  return { ok: true, value: bp };
}

/** A whole count such as a stock level or a pack quantity: "12", "1,200", "12.0". */
export function parseCount(raw: string): Parsed<number> {
  const s = raw.trim().replace(/[\s\u00a0]/g, '');
  if (s === '') return { ok: false, reason: 'The value is empty.' };
  if (/^\d{1,3}(?:,\d{3})+$/.test(s)) return { ok: true, value: Number(s.replace(/,/g, '')) };
  if (/^\d+(?:\.0+)?$/.test(s) && s.split('.')[0].length <= 9) return { ok: true, value: Number(s.split('.')[0]) };
  return { ok: false, reason: `"${raw.trim()}" is not a whole number.` };
}
