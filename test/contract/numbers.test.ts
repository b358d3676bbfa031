import { commas } from '../../contract/numbers';

test('commas writes en-US digit grouping whatever the locale, as every message and the sidebar show it', () => {
  expect(commas(1234567)).toBe('1,234,567');
  expect(commas(10_000_000)).toBe('10,000,000');
  expect(commas(999)).toBe('999');
  expect(commas(0)).toBe('0');
});
