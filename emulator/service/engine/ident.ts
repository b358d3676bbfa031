/**
 * Product identifiers: check digits, normalisation and kind detection. One module for all of it,
 * used by the catalog indexes, the scan engine and the conversion endpoints.
 *
 * Canonical key: every numeric trade item number (UPC-A, EAN-13, JAN, ISBN-13, GTIN-14, EAN-8)
 * is a GTIN, and GS1 defines them as the same number when left-padded with zeros to 14 digits.
 * So the key of "012345678905" (UPC-A), "0012345678905" (EAN-13) and "12345678905" (a UPC that
 * lost its leading zero in a spreadsheet) is the same: "00012345678905". ISBN-10 maps to its
 * ISBN-13 ("978" + 9 digits + new check digit) first.
 */

export type IdentifierKind = 'upc' | 'ean' | 'isbn' | 'gtin' | 'jan';
export const IDENTIFIER_KINDS: readonly IdentifierKind[] = ['upc', 'ean', 'isbn', 'gtin', 'jan'];

/** GS1 check digit of the digits before it (weights 3,1,3,... from the right). */
export function gtinCheckDigit(body: string): number {
  let sum = 0;
  for (let i = body.length - 1, w = 3; i >= 0; i--, w = w === 3 ? 1 : 3) sum += (body.charCodeAt(i) - 48) * w;
  return (10 - (sum % 10)) % 10;
}

export function isValidGtin(digits: string): boolean {
  return /^\d{8,14}$/.test(digits) && gtinCheckDigit(digits.slice(0, -1)) === digits.charCodeAt(digits.length - 1) - 48;
}

/** ISBN-10 check character (0-9 or X) of its first 9 digits. */
export function isbn10CheckChar(body9: string): string {
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (body9.charCodeAt(i) - 48) * (10 - i);
  const c = (11 - (sum % 11)) % 11;
  return c === 10 ? 'X' : String(c);
}

export function isValidIsbn10(s: string): boolean {
  return /^\d{9}[\dX]$/.test(s) && isbn10CheckChar(s.slice(0, 9)) === s[9];
}

export function isbn10To13(isbn10: string): string {
  const body = '978' + isbn10.slice(0, 9);
  return body + gtinCheckDigit(body);
}

/** Completes a body with its GS1 check digit (used by the generators). */
export function withCheckDigit(body: string): string {
  return body + gtinCheckDigit(body);
}

export const toGtin14 = (digits: string): string => digits.padStart(14, '0');

/**
 * UPC-E (8 digits, zero-suppressed, number system 0 or 1) expanded to its UPC-A, or undefined
 * when the digits are not a UPC-E whose check digit fits the expansion.
 */
export function upcEToA(e: string): string | undefined {
  if (!/^[01]\d{7}$/.test(e)) return undefined;
  const [n, d1, d2, d3, d4, d5, d6, c] = e;
  let body: string;
  if (d6 <= '2') body = n + d1 + d2 + d6 + '0000' + d3 + d4 + d5;
  else if (d6 === '3') body = n + d1 + d2 + d3 + '00000' + d4 + d5;
  else if (d6 === '4') body = n + d1 + d2 + d3 + d4 + '00000' + d5;
  else body = n + d1 + d2 + d3 + d4 + d5 + '0000' + d6;
  return String(gtinCheckDigit(body)) === c ? body + c : undefined;
}

/** What a supplier's identifier cell means. */
export type ParsedIdentifier =
  | { ok: true; kind: 'asin'; asin: string; keys: string[] }
  | { ok: true; kind: 'code'; keys: string[] }
  | { ok: false; reason: string };

/** Non-book ASINs: "B" and 9 letters/digits (book ASINs are ISBN-10s). */
export const ASIN = /^B[0-9A-Z]{9}$/;
const SCIENTIFIC = /^\d+(?:[.,]\d+)?e[+-]?\d+$/i;

/**
 * Reads one identifier as a supplier file carries it. Spaces and hyphens are ignored
 * ("0-12345-67890-5"). Results:
 * - `asin`: "B" and 9 letters/digits (upper-cased). A valid ISBN-10 is both an
 *   ASIN candidate (book ASINs are their ISBN-10) and a code; `keys` then holds its GTIN key.
 * - `code`: 8 to 14 digits whose GS1 check digit is right after left-padding (so UPCs that lost
 *   leading zeros still match), 8 digits that are a UPC-E (its UPC-A's key; an 8-digit code may
 *   be both an EAN-8 and a UPC-E, then both keys), or a valid ISBN-10; `keys` are GTIN-14 keys.
 * - otherwise not usable, with the reason (scientific notation, bad check digit, wrong length...).
 */
export function parseIdentifier(raw: string): ParsedIdentifier {
  const t = raw.trim().toUpperCase();
  // Spaces and hyphens group digits ("0-12345-67890-5"); in other text they are part of it.
  const s = /^[\d\s-]+X?$/.test(t) ? t.replace(/[\s-]+/g, '') : t;
  if (s === '') return { ok: false, reason: 'The identifier is empty.' };
  if (SCIENTIFIC.test(s)) {
    return {
      ok: false,
      reason: `"${raw.trim()}" is a number in scientific notation; its last digits were lost (format the column as text in the spreadsheet).`,
    };
  }
  const keys: string[] = [];
  if (isValidIsbn10(s)) keys.push(toGtin14(isbn10To13(s)));
  if (/^\d+$/.test(s)) {
    if (s.length < 8 || s.length > 14) {
      if (keys.length) return { ok: true, kind: 'code', keys };
      return { ok: false, reason: `"${s}" has ${s.length} digits; UPC, EAN, ISBN and GTIN have 8 to 14.` };
    }
    if (isValidGtin(toGtin14(s))) keys.push(toGtin14(s));
    if (s.length === 8) {
      const upcA = upcEToA(s);
      if (upcA) keys.push(toGtin14(upcA));
    }
    if (keys.length) {
      const k = [...new Set(keys)];
      return s.length === 10 && isValidIsbn10(s) ? { ok: true, kind: 'asin', asin: s, keys: k } : { ok: true, kind: 'code', keys: k };
    }
    return { ok: false, reason: `"${s}" has a wrong check digit.` };
  }
  if (ASIN.test(s) || keys.length) return { ok: true, kind: 'asin', asin: s, keys };
  return { ok: false, reason: `"${raw.trim()}" is not a UPC, EAN, ISBN, GTIN or ASIN.` };
}

/**
 * Kind of a catalog identifier string by its shape: 12 digits UPC; 13 digits ISBN when it starts
 * 978/979, JAN when 45/49, else EAN; 14 digits GTIN; 10 characters ISBN-10.
 */
export function kindOf(code: string): IdentifierKind | undefined {
  if (/^\d{12}$/.test(code)) return 'upc';
  if (/^\d{13}$/.test(code)) return /^97[89]/.test(code) ? 'isbn' : /^4[59]/.test(code) ? 'jan' : 'ean';
  if (/^\d{14}$/.test(code)) return 'gtin';
  if (isValidIsbn10(code)) return 'isbn';
  return undefined;
}

/** Canonical GTIN-14 key of a catalog identifier (catalog identifiers are stored valid). */
export function keyOf(code: string): string | undefined {
  if (code.length === 10 && isValidIsbn10(code)) return toGtin14(isbn10To13(code));
  return /^\d{8,14}$/.test(code) && isValidGtin(toGtin14(code)) ? toGtin14(code) : undefined;
}
