import { commas } from '../../contract/numbers';

test('commas writes en-US digit grouping whatever the locale, as every message and the sidebar show it', () => {
  expect(commas(1234567)).toBe('1,234,567');
  expect(commas(10_000_000)).toBe('10,000,000');
  expect(commas(999)).toBe('999');
  expect(commas(0)).toBe('0');
});

// The number and money words of the add-on's messages (moved here from src/, issue 34).
import { bpsPercent, count, figureText, megabytes, moneyText } from '../../contract/numbers';

test('count rounds to a whole number before grouping, as the room and size messages show cells and characters', () => {
  expect(count(12345.6)).toBe('12,346');
  expect(count(10_000_000)).toBe('10,000,000');
  expect(count(2.5)).toBe('3');
  expect(count(0)).toBe('0');
});

test('figureText: thousands separators, at most the decimals asked, trailing zeros dropped, never an exponent', () => {
  expect(figureText(1234.5)).toBe('1,234.5');
  expect(figureText(1234.567)).toBe('1,234.57');
  expect(figureText(-1234567.891, 1)).toBe('-1,234,567.9');
  expect(figureText(1234.5, 0)).toBe('1,235');
  expect(figureText(2)).toBe('2');
  expect(figureText(1e21)).toBe('more than 10^21');
  expect(figureText(-1e22)).toBe('minus more than 10^21');
  expect(figureText(Number.NaN)).toBe('');
  expect(figureText(Number.POSITIVE_INFINITY)).toBe('');
});

test("moneyText writes cents the way the marketplace's number format shows them", () => {
  expect(moneyText(123456, '"$"#,##0.00')).toBe('$1,234.56');
  expect(moneyText(-123456, '"$"#,##0.00')).toBe('-$1,234.56');
  expect(moneyText(123456789, '#,##0.00" €"')).toBe('1,234,567.89 €');
  expect(moneyText(123456, '"¥"#,##0')).toBe('¥1,235');
  expect(moneyText(5, '"£"#,##0.00')).toBe('£0.05');
});

test('bpsPercent: basis points as a percent, to two decimals at most', () => {
  expect(bpsPercent(8420)).toBe('84.2%');
  expect(bpsPercent(1234.6)).toBe('12.35%');
  expect(bpsPercent(-500)).toBe('-5%');
  expect(bpsPercent(0)).toBe('0%');
});

test('megabytes: bytes as mebibytes to one decimal, the way the upload limit is stated', () => {
  expect(megabytes(50 * 1024 * 1024)).toBe('50.0 MB');
  expect(megabytes(1.25 * 1024 * 1024)).toBe('1.3 MB');
  expect(megabytes(123_456_789)).toBe('117.7 MB');
});
