import { convertRows, outputHeader } from '../../../../src/app/formulas/column-run';
import { upc } from '../../api/fakes';
import { conversionService, world } from '../../custom-functions/helpers';

const U1 = upc('01234567890');

test('a chunk of ASIN_FROM_UPC rows: one output row per input row, in order', () => {
  const w = world(conversionService({ convert: { [U1]: ['B000000001', 'B000000002'] } }));
  const deps = { ...w.deps(), budgetMs: 300000 };
  expect(convertRows('ASIN_FROM_UPC', [[U1], [''], ['x']], 'US', 'spill', deps)).toEqual({
    values: [
      ['B000000001', 'B000000002'],
      ['', ''],
      ['invalid UPC: not an identifier', ''],
    ],
    width: 2,
  });
  expect(outputHeader('ASIN_FROM_UPC', 2)).toEqual(['ASIN', 'ASIN 2']);
});

test('IDENTIFIERS_FROM_ASIN rows come without the header; UPC_FROM_ASIN maps to its kind', () => {
  const w = world(conversionService({ asinConvert: { B000000001: { upc: [U1] } } }));
  expect(convertRows('IDENTIFIERS_FROM_ASIN', [['B000000001']], 'US', 'all', w.deps()).values).toEqual([[U1, '0' + U1, '', '00' + U1, '']]);
  expect(convertRows('UPC_FROM_ASIN', [['B000000001']], 'US', 'first', w.deps()).values).toEqual([[U1]]);
  expect(outputHeader('IDENTIFIERS_FROM_ASIN', 5)).toEqual(['UPC', 'EAN', 'ISBN', 'GTIN', 'JAN']);
  expect(outputHeader('GTIN_FROM_ASIN', 1)).toEqual(['GTIN']);
});
