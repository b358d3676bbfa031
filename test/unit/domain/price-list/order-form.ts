/**
 * An order form as suppliers send them: a title in C1 (merged-looking: the cells right of it are
 * blank), a customer/date row, a note, the header on row 4 (columns C to H), then product rows whose
 * descriptions and pack cells are full of header words ("Twin Pack", "Case", "Each"), UPCs as numbers
 * and as text, prices as numbers and as "$4.20", a product without item code, UPC or price, and a
 * blank "Order Qty" column the buyer fills in.
 */
import { gs1CheckDigit } from '../../../../src/domain/ids/checkDigits';

export const ORDER_FORM_HEADER_ROW = 4;
export const ORDER_FORM_FIRST_COLUMN = 3; // C
export const ORDER_FORM_HEADERS = ['Item', 'Description', 'Pack', 'UPC', 'Price', 'Order Qty'];
/** Sheet row of the product that has only words (no item code, UPC "n/a", price "call"). */
export const ORDER_FORM_WORDS_ONLY_ROW = 20;

function upc(n: number): string {
  const body = String(3600029140 + n * 7).padStart(11, '0');
  return body + gs1CheckDigit(body);
}

/** Rows 1..44 of columns C..H (index 0 = sheet row 1). */
export function orderFormRows(): unknown[][] {
  const rows: unknown[][] = [
    ['BEST GOODS WHOLESALE - ORDER FORM', '', '', '', '', ''],
    ['Customer:', '', '', 'Order date:', new Date(2026, 10, 20), ''],
    ['Prices valid while stock lasts. Minimum order $250.', '', '', '', '', ''],
    ORDER_FORM_HEADERS.slice(),
  ];
  const packs = ['Twin Pack', 'Each', 'Case of 12', '6 Pack', 'Pack', 'Each'];
  const names = [
    'Dish Soap Lemon Twin Pack',
    'Paper Towels Pack',
    'Glass Cleaner Case',
    'AA Batteries 6 Pack',
    'Sponge Each',
    'Trash Bags',
  ];
  for (let r = 5; r <= 44; r++) {
    const i = r - 5;
    if (r === ORDER_FORM_WORDS_ONLY_ROW) {
      rows.push(['', 'Mystery Gift Pack', 'Case', 'n/a', 'call', '']);
      continue;
    }
    const code = upc(i);
    rows.push([
      'BG-' + (1000 + i),
      names[i % names.length] + ' ' + (i + 1),
      packs[i % packs.length],
      i % 3 === 0 ? code : Number(code),
      i % 4 === 0 ? '$' + (2 + i / 4).toFixed(2) : 2 + i / 8,
      '',
    ]);
  }
  return rows;
}
