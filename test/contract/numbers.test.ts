import { commas } from '../../contract/numbers';

test('commas writes en-US digit grouping whatever the locale, as every message and the sidebar show it', () => {
  expect(commas(1234567)).toBe('1,234,567');
  expect(commas(10_000_000)).toBe('10,000,000');
  expect(commas(999)).toBe('999');
  expect(commas(0)).toBe('0');
});

import { percentFixed } from '../../contract/numbers';

test('percentFixed writes a percentage with fixed decimals and a sign, as the progress bar width the sidebar sets', () => {
  expect(percentFixed(12.46, 1)).toBe('12.5%');
  expect(percentFixed(0, 1)).toBe('0.0%');
  expect(percentFixed(100, 1)).toBe('100.0%');
  expect(percentFixed(33.333, 0)).toBe('33%');
  // No digit grouping: a CSS length must stay a plain number.
  expect(percentFixed(1234.5, 1)).toBe('1234.5%');
});
