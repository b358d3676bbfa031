/**
 * Recognition and repair of product identifiers as they come out of a spreadsheet cell
 * (getValues gives string | number | boolean | Date, '' for empty). Shared by the scan flow and by
 * the identifier formulas (=ASIN_FROM_UPC ...). Pure; nothing runs at load time.
 *
 * Decisions (see src/README.md, "Pure logic"):
 * - Leading zeros lost by a number (or by a text copy of one) are restored only when the GS1 check
 *   digit proves the padded value, and at most 3 zeros (a UPC is padded to 12 digits, or to 13 when
 *   an EAN is expected). Zero-padding never changes a GS1 check digit, so 12/13/14-digit readings of
 *   one code are the same GTIN: we restore to the SHORTEST standard length (12, then 13, then 14).
 *   A real ambiguity is between kinds: 9 or 10 digits that are both a valid ISBN-10 and a valid
 *   zero-stripped UPC; that is reported as 'ambiguous' unless the expected kind settles it.
 * - Digits already lost are flagged 'scientific-notation': text like "5.01234E+12"; numbers above
 *   2^53 or with more than 15 digits (Sheets keeps 15 significant digits); and 12+ digit numbers
 *   ending in 4+ zeros, or in 2-3 zeros with a failing check digit (what "5.01234E+12" becomes once
 *   parsed back into a number). Such values are never sent.
 * - 8 digits: UPC-E when it starts with 0 and its expansion checks (the value to send is then the
 *   12-digit UPC-A); otherwise EAN-8; a leading 1 tries EAN-8 first, then UPC-E.
 * - ASIN: "B" + 9 letters/digits; a valid ISBN-10 is also a book's ASIN (kind 'ASIN' when the
 *   caller expects ASINs).
 */
import { expandUpcE, isValidGs1, isValidIsbn10 } from './checkDigits';
import { quoteCell } from './quote';

export type IdKind = 'UPC' | 'EAN' | 'JAN' | 'ISBN-13' | 'GTIN-14' | 'EAN-8' | 'UPC-E' | 'ISBN-10' | 'ASIN';

/**
 * What the caller expects: settles ambiguity, chooses the restored length, and refuses other kinds.
 * 'upc' and 'ean' accept every GS1 code (supplier "UPC" columns hold EANs too) but restore to 12 / 13.
 */
export type IdExpectation = 'any' | 'gtin' | 'upc' | 'ean' | 'isbn' | 'asin';

/** How a value was changed to become valid. */
export type IdRepair =
  /** Leading zeros restored, proven by the check digit. */
  | 'leading-zeros'
  /** Spaces, hyphens, a leading apostrophe or a trailing ".0" removed, or letters upper-cased. */
  | 'cleaned'
  /** An 8-digit UPC-E written out as its 12-digit UPC-A. */
  | 'upc-e-expanded';

export type IdFailReason =
  | 'blank'
  | 'scientific-notation'
  | 'wrong-length'
  | 'bad-check-digit'
  | 'not-numeric'
  | 'not-an-identifier'
  | 'ambiguous'
  | 'unexpected-kind';

export interface IdOk {
  ok: true;
  kind: IdKind;
  /** The identifier to send: digits (or ASIN letters), no spaces. */
  value: string;
  /** Set when value differs from what the cell held. */
  repaired?: IdRepair;
  /** The cell as text, for messages and repair reports. */
  original: string;
}

export interface IdFail {
  ok: false;
  reason: IdFailReason;
  /** Short sentence for a person, naming the value. */
  message: string;
  original: string;
  /** For 'ambiguous': the readings that are all valid. */
  candidates?: { kind: IdKind; value: string }[];
}

export type IdResult = IdOk | IdFail;

const GS1_KINDS: readonly IdKind[] = ['UPC', 'EAN', 'JAN', 'ISBN-13', 'GTIN-14', 'EAN-8', 'UPC-E'];

/** The cell as a person would read it, for messages. */
export function cellText(value: unknown): string {
  // Text and numbers first: a price list is millions of them, and the Date test below is the slow one.
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  if (value instanceof Date || Object.prototype.toString.call(value) === '[object Date]') {
    const d = value as Date;
    if (isNaN(d.getTime())) return 'an invalid date';
    return d.getFullYear() + '-' + pad2(d.getMonth() + 1) + '-' + pad2(d.getDate());
  }
  if (typeof value === 'number') {
    if (!isFinite(value)) return String(value);
    // Sheets-like: big numbers in scientific notation look like "5.01234E+12".
    if (Math.abs(value) >= 1e21) return value.toExponential().replace('e', 'E');
    return String(value);
  }
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  return String(value);
}

function pad2(n: number): string {
  return n < 10 ? '0' + n : String(n);
}

/**
 * Classifies, validates and, where provable, repairs one cell value as a product identifier.
 * Never throws; every failure has a reason code and a message.
 */
export function identify(value: unknown, expected: IdExpectation = 'any'): IdResult {
  const original = cellText(value);
  if (value === null || value === undefined || (typeof value === 'string' && value.trim() === '')) {
    return fail('blank', 'The identifier cell is empty.', '');
  }
  if (typeof value === 'boolean') {
    return fail('not-an-identifier', original + ' is a yes/no value, not an identifier.', original);
  }
  if (typeof value === 'number') return fromNumber(value, original, expected);
  if (typeof value === 'string') return fromText(value, original, expected);
  if (value instanceof Date || Object.prototype.toString.call(value) === '[object Date]') {
    return fail('not-an-identifier', 'The cell holds a date (' + original + '), not an identifier.', original);
  }
  return fail('not-an-identifier', 'Not an identifier.', original);
}

function fromNumber(n: number, original: string, expected: IdExpectation): IdResult {
  if (!isFinite(n) || n < 0 || Math.floor(n) !== n) {
    return fail('not-an-identifier', quoteCell(original) + ' is not a whole number, so not an identifier.', original);
  }
  // Shown the way Sheets shows such numbers, so the user recognises the cell: 5.01234E+12.
  const sci = n.toExponential().replace('e+', 'E+');
  if (n > Number.MAX_SAFE_INTEGER) return sciFail(original, sci);
  const digits = String(n);
  // Sheets keeps 15 significant digits: a longer number has already lost its last digits.
  if (digits.length > 15) return sciFail(original, sci);
  if (digits.length >= 12) {
    const zeros = /0*$/.exec(digits)![0].length;
    if (zeros >= 4 || (zeros >= 2 && !isValidGs1(digits))) return sciFail(original, sci);
  }
  return fromDigits(digits, original, expected, undefined, true);
}

function fromText(raw: string, original: string, expected: IdExpectation): IdResult {
  let s = raw.trim();
  if (s[0] === "'") s = s.slice(1);
  if (/^[+-]?\d+(?:[.,]\d+)?[eE][+-]?\d+$/.test(s.replace(/\s/g, ''))) return sciFail(original.trim());
  // "036000291452.0": a number written out by a tool that treats every number as a float.
  if (/^\d{6,}\.0+$/.test(s)) s = s.replace(/\.0+$/, '');
  const cleaned = s.replace(/[\s\u00a0\u2007\u202f-]/g, '').toUpperCase();
  const repaired: IdRepair | undefined = cleaned !== raw ? 'cleaned' : undefined;
  if (cleaned === '') return fail('blank', 'The identifier cell is empty.', '');
  if (/^\d+$/.test(cleaned)) return fromDigits(cleaned, original, expected, repaired, false);
  if (/^\d{9}X$/.test(cleaned)) {
    if (isValidIsbn10(cleaned)) return accept(isbnOrAsin(expected), cleaned, original, expected, repaired);
    return fail('bad-check-digit', quoteCell(original) + ' is not a valid ISBN-10: its check character is wrong.', original);
  }
  // Spaces and hyphens are dropped from barcodes only: "Blue widget" is words, not the ASIN BLUEWIDGET.
  if (/^B[0-9A-Z]{9}$/.test(cleaned) && !/[\s\u00a0\u2007\u202f-]/.test(s)) return accept('ASIN', cleaned, original, expected, repaired);
  const digitCount = cleaned.replace(/\D/g, '').length;
  if (digitCount >= 6 && /^[0-9A-Z]+$/.test(cleaned)) {
    // Each letter once, the first few: a 50,000-character cell must not make a 50,000-character message.
    let letters = '';
    for (const ch of cleaned.replace(/\d/g, '')) if (letters.indexOf(ch) < 0) letters += ch;
    return fail(
      'not-numeric',
      quoteCell(original) +
        ' has letters (' +
        letters.split('').slice(0, 8).join(', ') +
        (letters.length > 8 ? ', …' : '') +
        ') where a barcode has only digits.',
      original,
    );
  }
  return fail('not-an-identifier', quoteCell(original) + ' is not a UPC, EAN, GTIN, ISBN or ASIN.', original);
}

function isbnOrAsin(expected: IdExpectation): IdKind {
  return expected === 'asin' ? 'ASIN' : 'ISBN-10';
}

/** Kind of a valid GS1 code of 12 to 14 digits. */
function gs1Kind(d: string): IdKind {
  if (d.length === 12) return 'UPC';
  if (d.length === 14) return 'GTIN-14';
  if (/^97[89]/.test(d)) return 'ISBN-13';
  if (/^4[59]/.test(d)) return 'JAN';
  return 'EAN';
}

interface Reading {
  kind: IdKind;
  value: string;
  repaired?: IdRepair;
}

/** Valid readings of an 8-digit code (UPC-E expanded, EAN-8), in order of preference. */
function eightDigitReadings(d: string): Reading[] {
  const out: Reading[] = [];
  const upcA = expandUpcE(d);
  const upcEOk = upcA !== null && isValidGs1(upcA);
  const ean8Ok = isValidGs1(d);
  if (d[0] === '0') {
    if (upcEOk) out.push({ kind: 'UPC-E', value: upcA!, repaired: 'upc-e-expanded' });
    else if (ean8Ok) out.push({ kind: 'EAN-8', value: d });
  } else {
    if (ean8Ok) out.push({ kind: 'EAN-8', value: d });
    else if (upcEOk) out.push({ kind: 'UPC-E', value: upcA!, repaired: 'upc-e-expanded' });
  }
  return out;
}

function fromDigits(d: string, original: string, expected: IdExpectation, cleaned: IdRepair | undefined, fromNum: boolean): IdResult {
  const L = d.length;
  const wantsIsbn = expected === 'isbn' || expected === 'asin';
  const wantsGs1 = expected === 'gtin' || expected === 'upc' || expected === 'ean';
  if (L >= 12 && L <= 14) {
    if (wantsIsbn && L !== 13) return unexpected(gs1KindOrGuess(d), original, expected);
    if (isValidGs1(d)) return accept(gs1Kind(d), d, original, expected, cleaned);
    return fail('bad-check-digit', badCheckMessage(original, L), original);
  }
  if (L > 14) {
    return fail('wrong-length', quoteCell(original) + ' has ' + L + ' digits; a UPC has 12, an EAN 13, a GTIN 14.', original);
  }
  // Shorter than 12: exact 8 / 10 digit readings, plus readings with restored leading zeros.
  const readings: Reading[] = [];
  if (L === 8 && !wantsIsbn) readings.push(...eightDigitReadings(d));
  if (L === 10 && !wantsGs1 && isValidIsbn10(d)) readings.push({ kind: isbnOrAsin(expected), value: d });
  if (L === 9 && !wantsGs1) {
    const p = '0' + d;
    if (isValidIsbn10(p)) readings.push({ kind: isbnOrAsin(expected), value: p, repaired: 'leading-zeros' });
  }
  if (L === 7 && !wantsIsbn) {
    for (const r of eightDigitReadings('0' + d)) readings.push({ ...r, repaired: r.repaired || 'leading-zeros' });
  }
  // A number cannot hold leading zeros, so its exact reading competes with the zero-restored one;
  // text could, so for text an exact reading wins.
  if (!wantsIsbn && L >= 9 && L <= 11 && (fromNum || readings.length === 0)) {
    const target = expected === 'ean' ? 13 : 12;
    if (target - L <= 3) {
      const p = '0'.repeat(target - L) + d;
      if (isValidGs1(p) && !readings.some((r) => r.value === p)) readings.push({ kind: gs1Kind(p), value: p, repaired: 'leading-zeros' });
    }
  }
  if (readings.length === 1) {
    const r = readings[0];
    return accept(r.kind, r.value, original, expected, r.repaired || cleaned);
  }
  if (readings.length > 1) {
    return {
      ok: false,
      reason: 'ambiguous',
      message:
        '"' +
        original +
        '" could be ' +
        readings.map((r) => 'the ' + r.kind + ' ' + r.value).join(' or ') +
        '; say which kind the column holds.',
      original,
      candidates: readings.map((r) => ({ kind: r.kind, value: r.value })),
    };
  }
  if (L === 11 && !wantsIsbn) {
    return fail(
      'bad-check-digit',
      quoteCell(original) + ' has 11 digits, and with its leading zero restored the check digit is still wrong.',
      original,
    );
  }
  if (L === 8 && !wantsIsbn) return fail('bad-check-digit', badCheckMessage(original, L), original);
  if (L === 10 && !wantsGs1) {
    return fail(
      'bad-check-digit',
      '"' +
        original +
        '" is not a valid ISBN-10: its check digit is wrong' +
        (wantsIsbn ? '.' : ' (nor is it a UPC missing its leading zeros).'),
      original,
    );
  }
  return fail('wrong-length', wrongLengthMessage(original, L, expected), original);
}

function gs1KindOrGuess(d: string): IdKind {
  return d.length === 12 ? 'UPC' : d.length === 14 ? 'GTIN-14' : 'EAN';
}

function badCheckMessage(original: string, L: number): string {
  const name = L === 12 ? 'UPC' : L === 13 ? 'EAN' : L === 14 ? 'GTIN' : 'EAN-8/UPC-E';
  return quoteCell(original) + ' is not a valid ' + name + ': its check digit is wrong.';
}

function wrongLengthMessage(original: string, L: number, expected: IdExpectation): string {
  const want =
    expected === 'isbn' ? 'an ISBN has 10 or 13' : expected === 'asin' ? 'an ASIN has 10 characters' : 'a UPC has 12, an EAN 13, a GTIN 14';
  return quoteCell(original) + ' has ' + L + ' digit' + (L === 1 ? '' : 's') + '; ' + want + '.';
}

function accept(kind: IdKind, value: string, original: string, expected: IdExpectation, repaired: IdRepair | undefined): IdResult {
  if (!kindFits(kind, expected)) return unexpected(kind, original, expected);
  const out: IdOk = { ok: true, kind, value, original };
  if (repaired) out.repaired = repaired;
  return out;
}

function kindFits(kind: IdKind, expected: IdExpectation): boolean {
  switch (expected) {
    case 'any':
      return true;
    case 'gtin':
    case 'upc':
    case 'ean':
      return GS1_KINDS.indexOf(kind) >= 0;
    case 'isbn':
      return kind === 'ISBN-10' || kind === 'ISBN-13';
    case 'asin':
      return kind === 'ASIN';
  }
}

function unexpected(kind: IdKind, original: string, expected: IdExpectation): IdFail {
  const want = { any: 'an identifier', gtin: 'a UPC/EAN/GTIN', upc: 'a UPC', ean: 'an EAN', isbn: 'an ISBN', asin: 'an ASIN' }[expected];
  return fail(
    'unexpected-kind',
    quoteCell(original) + ' is ' + (/^[AEIU]/.test(kind) ? 'an ' : 'a ') + kind + ', not ' + want + '.',
    original,
  );
}

function sciFail(original: string, shown: string = original): IdFail {
  return fail(
    'scientific-notation',
    quoteCell(shown) +
      ' was stored in scientific notation and its last digits are lost; format the column as plain text and re-enter the identifiers.',
    original,
  );
}

function fail(reason: IdFailReason, message: string, original: string): IdFail {
  return { ok: false, reason, message, original };
}
