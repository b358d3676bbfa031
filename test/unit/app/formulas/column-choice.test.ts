import {
  chooseConversion,
  finalRows,
  looksLikeHeader,
  OUT_OF_TIME_TEXT,
  parseConversion,
} from '../../../../src/app/formulas/column-choice';
import { failedText } from '../../../../src/custom-functions/messages';

test('a text that is no identifier is a header; ids, numbers and blanks are not', () => {
  expect(looksLikeHeader('UPC')).toBe(true);
  expect(looksLikeHeader('Barcode / EAN')).toBe(true);
  expect(looksLikeHeader('012345678905')).toBe(false);
  expect(looksLikeHeader('B000000001')).toBe(false);
  expect(looksLikeHeader(12345678905)).toBe(false);
  expect(looksLikeHeader('')).toBe(false);
  expect(looksLikeHeader('03600029145A')).toBe(false); // a broken barcode is data, not a header
});

test('the conversion: a header naming the kind decides, else the most frequent kind of id', () => {
  expect(chooseConversion('EAN', ['012345678905'])).toBe('ASIN_FROM_EAN');
  expect(chooseConversion('ASIN', [])).toBe('IDENTIFIERS_FROM_ASIN');
  expect(chooseConversion(undefined, ['012345678905', 36000291452, '4006381333931'])).toBe('ASIN_FROM_UPC');
  expect(chooseConversion('Code', ['4006381333931', '5012345678900', '012345678905'])).toBe('ASIN_FROM_EAN');
  expect(chooseConversion(undefined, ['9780306406157', '0306406152'])).toBe('ASIN_FROM_ISBN');
  expect(chooseConversion(undefined, ['B000000001', 'b0000000x2', ''])).toBe('IDENTIFIERS_FROM_ASIN');
  expect(chooseConversion(undefined, ['hello', '', 'x'])).toBeUndefined();
});

test('conversion names from the sidebar: any case; unknown ones are refused', () => {
  expect(parseConversion('asin_from_upc')).toBe('ASIN_FROM_UPC');
  expect(parseConversion(' JAN_FROM_ASIN ')).toBe('JAN_FROM_ASIN');
  expect(parseConversion('ASIN_FROM_SKU')).toBeUndefined();
  expect(parseConversion(null)).toBeUndefined();
});

test('finalRows: rows from the first that ran out of time are left; with the budget spent, 429/5xx rows too', () => {
  const busy = failedText({ kind: 'rate-limited', message: '' });
  const err = failedText({ kind: 'server', status: 503, message: '' });
  const rows = [['B000000001'], ['not found'], [busy], ['B000000002'], [OUT_OF_TIME_TEXT], ['B000000003']];
  expect(finalRows(rows)).toBe(4);
  expect(finalRows(rows, true)).toBe(2);
  expect(finalRows([['a'], [err]], true)).toBe(1);
  expect(finalRows([['a'], [err]], false)).toBe(2);
  expect(finalRows([['invalid UPC: wrong length', '']], true)).toBe(1);
});
