/**
 * Check digits of product identifiers. Pure; nothing runs at load time.
 * GS1 (UPC-A, EAN-13/JAN/ISBN-13, GTIN-14, EAN-8): weights 3,1,3,1... from the right, excluding the check digit.
 * Because the weights are counted from the right, leading zeros never change a GS1 check digit: that is
 * what lets a UPC that lost its leading zero be restored and proved.
 */

/** GS1 check digit (0-9) for the digits WITHOUT their check digit. */
export function gs1CheckDigit(body: string): number {
  let sum = 0;
  for (let i = body.length - 1, w = 3; i >= 0; i--, w = w === 3 ? 1 : 3) {
    sum += (body.charCodeAt(i) - 48) * w;
  }
  return (10 - (sum % 10)) % 10;
}

/** True when a string of digits (8 to 14 long) ends with its correct GS1 check digit. */
export function isValidGs1(digits: string): boolean {
  if (!/^\d{8,14}$/.test(digits)) return false;
  return gs1CheckDigit(digits.slice(0, -1)) === digits.charCodeAt(digits.length - 1) - 48;
}

/** ISBN-10 check character ('0'-'9' or 'X') for the first 9 digits. */
export function isbn10CheckChar(first9: string): string {
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (first9.charCodeAt(i) - 48) * (10 - i);
  const c = (11 - (sum % 11)) % 11;
  return c === 10 ? 'X' : String(c);
}

/** True for a valid ISBN-10: 9 digits then a digit or X (upper case; callers normalise). */
export function isValidIsbn10(s: string): boolean {
  if (!/^\d{9}[\dX]$/.test(s)) return false;
  return isbn10CheckChar(s.slice(0, 9)) === s[9];
}

/**
 * UPC-A (12 digits) of a UPC-E code (8 digits: number system 0 or 1, six digits, check digit),
 * or null when the input is not of that shape. Zero-suppression rules of GS1 General Specifications.
 */
export function expandUpcE(upcE: string): string | null {
  if (!/^[01]\d{7}$/.test(upcE)) return null;
  const ns = upcE[0];
  const d = upcE.slice(1, 7);
  const check = upcE[7];
  const last = d[5];
  let body: string;
  if (last === '0' || last === '1' || last === '2') body = d.slice(0, 2) + last + '0000' + d.slice(2, 5);
  else if (last === '3') body = d.slice(0, 3) + '00000' + d.slice(3, 5);
  else if (last === '4') body = d.slice(0, 4) + '00000' + d[4];
  else body = d.slice(0, 5) + '0000' + last;
  return ns + body + check;
}

/** ISBN-13 (978 prefix) of a valid ISBN-10. */
export function isbn10To13(isbn10: string): string {
  const body = '978' + isbn10.slice(0, 9);
  return body + String(gs1CheckDigit(body));
}
