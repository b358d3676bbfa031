import {
  amountToCents,
  bpsToFraction,
  bpsToPercent,
  centsToAmount,
  centsToDecimalText,
  decimalTextToCents,
  fractionToBps,
  percentToBps,
  plainDecimal,
} from '../../../../contract/units';
import { detectDecimalSeparator, moneyCurrencies, MoneyResult, parseCost, parseMoney } from '../../../../src/domain/price-list/cost';

function ok(r: MoneyResult) {
  if (!r.ok) throw new Error('expected ok, got ' + r.reason + ': ' + r.message);
  return r;
}
function bad(r: MoneyResult) {
  if (r.ok) throw new Error('expected a failure, got ' + r.decimal);
  return r;
}

describe('units', () => {
  test('decimal text to cents is exact and rounds half up on the third decimal', () => {
    expect(decimalTextToCents('1299')).toBe(129900);
    expect(decimalTextToCents('1299.5')).toBe(129950);
    expect(decimalTextToCents('0.005')).toBe(1);
    expect(decimalTextToCents('0.0049')).toBe(0);
    expect(decimalTextToCents('-3.10')).toBe(-310);
    expect(decimalTextToCents('.5')).toBe(50);
    expect(decimalTextToCents('12.')).toBe(1200);
    expect(decimalTextToCents('1,299.00')).toBeNull();
    expect(decimalTextToCents('')).toBeNull();
    expect(decimalTextToCents('.')).toBeNull();
  });
  test('float artefacts of getValues numbers do not reach the cents', () => {
    expect(amountToCents(0.1 + 0.2)).toBe(30);
    expect(amountToCents(1.005)).toBe(101); // 1.005 is 1.00499999999999989... as a double
    expect(amountToCents(12.5)).toBe(1250);
    expect(amountToCents(19.99)).toBe(1999);
    expect(amountToCents(1e-7)).toBe(0);
    expect(amountToCents(NaN)).toBeNull();
    expect(amountToCents(Infinity)).toBeNull();
  });
  test('cents to amounts and decimal text', () => {
    expect(centsToAmount(129900)).toBe(1299);
    expect(centsToAmount(1999)).toBe(19.99);
    expect(centsToDecimalText(129900)).toBe('1299.00');
    expect(centsToDecimalText(5)).toBe('0.05');
    expect(centsToDecimalText(-5)).toBe('-0.05');
    expect(centsToDecimalText(0)).toBe('0.00');
  });
  test('basis points to fractions and percents, both ways', () => {
    expect(bpsToFraction(3000)).toBe(0.3);
    expect(bpsToPercent(1250)).toBe(12.5);
    expect(fractionToBps(0.07)).toBe(700);
    expect(fractionToBps(0.1 + 0.2)).toBe(3000);
    expect(percentToBps(12.5)).toBe(1250);
    expect(percentToBps(0.01)).toBe(1);
  });
  test('plainDecimal never writes an exponent', () => {
    expect(plainDecimal(1e-7)).toBe('0.0000001');
    expect(plainDecimal(0.1 + 0.2)).toBe('0.3');
    expect(plainDecimal(1e21)).toBe('1000000000000000000000');
    expect(plainDecimal(12345678905)).toBe('12345678905');
    expect(plainDecimal(-2.5)).toBe('-2.5');
    expect(plainDecimal(0)).toBe('0');
  });
});

describe('parseCost: formats a supplier writes', () => {
  test.each([
    ['$1,299.00', '1299.00'],
    ['1.299,00 €', '1299.00'],
    ['€1.299,00', '1299.00'],
    ['1 299,00 €', '1299.00'],
    ['1\u00a0299,00\u00a0€', '1299.00'],
    ["1'299.00 CHF", '1299.00'],
    ['12.5', '12.50'],
    ['12,5', '12.50'],
    ['12,50', '12.50'],
    ['$12', '12.00'],
    ['USD 12.99', '12.99'],
    ['12.99 USD', '12.99'],
    ['CA$4.25', '4.25'],
    ['£0.99', '0.99'],
    ['99 kr', '99.00'],
    ['1,299,000', '1299000.00'],
    ['1.299.000', '1299000.00'],
    ['1.299.000,50', '1299000.50'],
    ['0,299', '0.30'],
    ['.75', '0.75'],
    ['+3.00', '3.00'],
  ])('%s -> %s', (text, decimal) => {
    expect(ok(parseCost(text)).decimal).toBe(decimal);
  });

  test('numbers from getValues', () => {
    expect(ok(parseCost(12.5))).toMatchObject({ cents: 1250, decimal: '12.50' });
    expect(ok(parseCost(0.1 + 0.2))).toMatchObject({ cents: 30, decimal: '0.30' });
    expect(ok(parseCost(0.1 + 0.2)).rounded).toBeUndefined();
    expect(ok(parseCost(1299))).toMatchObject({ cents: 129900, decimal: '1299.00' });
  });

  test('sub-cent amounts are rounded to cents and say so', () => {
    expect(ok(parseCost(12.345))).toMatchObject({ cents: 1235, rounded: true });
    expect(ok(parseCost('2.499'))).toMatchObject({ decimal: '2.50', rounded: true });
    expect(ok(parseCost('2.500')).rounded).toBeUndefined();
  });

  test('"1,299" with nothing else to go by: comma groups thousands, and it is marked ambiguous', () => {
    expect(ok(parseCost('1,299'))).toMatchObject({ decimal: '1299.00', ambiguous: true });
    expect(ok(parseCost('1.299'))).toMatchObject({ decimal: '1.30', ambiguous: true, rounded: true });
  });

  test('the column convention settles "1,299" and "1.299"', () => {
    expect(ok(parseCost('1,299', { decimal: ',' }))).toMatchObject({ decimal: '1.30' });
    expect(ok(parseCost('1,299', { decimal: ',' })).ambiguous).toBeUndefined();
    expect(ok(parseCost('1.299', { decimal: ',' })).decimal).toBe('1299.00');
    expect(ok(parseCost('1,299', { decimal: '.' })).decimal).toBe('1299.00');
    expect(ok(parseCost('1.299', { decimal: '.' })).decimal).toBe('1.30');
  });

  test.each([
    ['', 'blank'],
    ['  ', 'blank'],
    [null, 'blank'],
    ['call', 'not-a-number'],
    ['N/A', 'not-a-number'],
    ['TBD', 'not-a-number'],
    ['12 per case', 'not-a-number'],
    ['1,29,9', 'not-a-number'],
    ['1.2.3,4.5', 'not-a-number'],
    ['12%', 'not-a-number'],
    ['12$50', 'not-a-number'],
    [true, 'not-a-number'],
    [new Date(2024, 0, 1), 'not-a-number'],
    ['-5.00', 'negative'],
    ['($5.00)', 'negative'],
    ['$-5', 'negative'],
    [-5, 'negative'],
    [0, 'zero'],
    ['$0.00', 'zero'],
    ['0.001', 'zero'],
    ['99999999999999999', 'too-large'],
    [1e20, 'too-large'],
  ])('%p is unusable: %s', (value, reason) => {
    const r = bad(parseCost(value));
    expect(r.reason).toBe(reason);
    expect(r.message).toMatch(/^Cost/);
  });

  test('parseMoney allows zero when asked and names the field', () => {
    expect(ok(parseMoney('0', { allowZero: true })).cents).toBe(0);
    expect(bad(parseMoney('x', { label: 'MAP' })).message).toBe('MAP "x" is not an amount.');
  });
});

describe('detectDecimalSeparator', () => {
  test('European column', () => {
    expect(detectDecimalSeparator(['1.299,00 €', '12,50', '1,299', 3])).toBe(',');
  });
  test('US column', () => {
    expect(detectDecimalSeparator(['$1,299.00', '12.50', '1,299'])).toBe('.');
  });
  test('no evidence or a tie', () => {
    expect(detectDecimalSeparator(['1,299', 12.5, '', '7'])).toBeNull();
    expect(detectDecimalSeparator(['12,50', '12.50'])).toBeNull();
  });
});

describe('moneyCurrencies: the currencies a money text is marked with', () => {
  test.each([
    ['1.299,00 €', ['EUR']],
    ['€12', ['EUR']],
    ['$1,299.00', ['USD', 'CAD', 'MXN', 'AUD', 'SGD']],
    ['CA$ 12.00', ['CAD']],
    ['12,50 zł', ['PLN']],
    ['EUR 12', ['EUR']],
    ['(£5.00)', ['GBP', 'EGP']],
    ['¥1200', ['JPY', 'CNY']],
  ])('%s', (text, codes) => expect(moneyCurrencies(text)).toEqual(codes));
  test('no mark: null', () => {
    expect(moneyCurrencies('1,299.00')).toBeNull();
    expect(moneyCurrencies('12')).toBeNull();
  });
});
