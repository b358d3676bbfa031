/**
 * Issue 36: the picture address is the add-on's own string, made only from a checked https link of
 * the service's answer, and the cell is `=IMAGE("<address>")` with it as a string literal
 * (support.google.com/docs/answer/3093333: IMAGE's url is "enclosed in quotation marks").
 */
import {
  firstPicture,
  pictureAddress,
  pictureCell,
  pictureOfFormula,
  PICTURE_ADDRESS_MAX,
} from '../../../../src/domain/result-tabs/picture';
import { resultBlock } from '../../../../src/domain/result-tabs/result-columns';
import { findMarketplace } from '../../../../contract/marketplaces';

const OK = 'https://images.scan-service.invalid/I/B000000001-0.png';

test('an https link of plain URL characters is taken as it is', () => {
  expect(pictureAddress(OK)).toBe(OK);
  expect(pictureAddress('https://m.media-amazon.com/images/I/41abc+XY._SL75_.jpg?x=1&y=2')).toBe(
    'https://m.media-amazon.com/images/I/41abc+XY._SL75_.jpg?x=1&y=2',
  );
});

test.each([
  ['a double quote (ends the string)', 'https://a.example/x".png'],
  ['a quote that closes the formula', 'https://a.example/x"),HYPERLINK("http://evil.invalid'],
  ['a single quote', "https://a.example/it's.png"],
  ['a backslash', 'https://a.example/x\\y.png'],
  ['a closing bracket', 'https://a.example/x).png'],
  ['a space', 'https://a.example/x y.png'],
  ['a newline', 'https://a.example/x\n.png'],
  ['a tab', 'https://a.example/x\t.png'],
  ['a NUL', 'https://a.example/x\u0000.png'],
  ['a DEL', 'https://a.example/x\u007f.png'],
  ['a line separator', 'https://a.example/x\u2028.png'],
  ['a curly quote', 'https://a.example/x\u201d.png'],
  ['http', 'http://a.example/x.png'],
  ['javascript:', 'javascript:alert(1)'],
  ['a formula', '=IMAGE("https://a.example/x.png")'],
  ['no host', 'https:///x.png'],
  ['user info', 'https://user@a.example/x.png'],
  ['upper-case scheme only after a space', ' https://a.example/x.png'],
  ['overlong', 'https://a.example/' + 'x'.repeat(PICTURE_ADDRESS_MAX)],
])('refused: %s', (_, link) => {
  expect(pictureAddress(link)).toBeNull();
  expect(pictureCell(link)).toBe('');
});

test('non-strings are refused', () => {
  for (const v of [null, undefined, 42, { url: OK }, [OK]]) expect(pictureAddress(v)).toBeNull();
});

test('the first image in either shape the service answers in; none usable: no picture', () => {
  expect(
    firstPicture({
      images: [
        { marketplace_id: 1, url: OK },
        { marketplace_id: 1, url: 'https://b.example/2.png' },
      ],
    }),
  ).toBe(OK);
  expect(
    firstPicture({
      images: [
        {
          marketplace_id: '1',
          image: [
            { link: 'https://b.example/side.png', variant: 'PT01' },
            { link: OK, variant: 'MAIN' },
          ],
        },
      ],
    }),
  ).toBe(OK);
  expect(firstPicture({ images: [] })).toBeNull();
  expect(firstPicture({})).toBeNull();
  expect(firstPicture({ images: [{ url: 'https://a.example/x".png' }] })).toBeNull();
});

test('the picture cell is IMAGE of the checked address; a bad link leaves the cell blank, never its text', () => {
  const mp = findMarketplace('US')!;
  const bad = 'https://a.example/x"),HYPERLINK("http://evil.invalid","click';
  const block = resultBlock(
    [
      { asin: 'B000000001', market_title: 'Mug', images: [{ url: OK }] },
      { asin: 'B000000002', market_title: 'Pan', images: [{ url: bad }] },
      { asin: 'B000000003', market_title: 'Cup' },
    ],
    { marketplace: mp },
  );
  const c = block.headers.indexOf('Picture');
  expect(block.headers.slice(0, 3)).toEqual(['ASIN', 'Title', 'Picture']);
  expect(block.values.map((r) => r[c])).toEqual([`=IMAGE("${OK}")`, '', '']);
});

describe('pictureOfFormula: the address in a Picture cell, checked again (anyone may edit the cell)', () => {
  test('the formula the import writes gives its address back', () => {
    const address = 'https://images.scan-service.invalid/I/B000000001-0.png';
    expect(pictureOfFormula(pictureCell(address))).toBe(address);
    expect(pictureOfFormula(`=image( "${address}" )`)).toBe(address);
  });
  test('anything else is no picture: another formula, a bad address, text, nothing', () => {
    for (const f of [
      '=IMAGE("javascript:alert(1)")',
      '=IMAGE("http://example.com/a.png")',
      '=IMAGE("https://a.example/x.png", 4, 10, 10)',
      '=IMAGE(A1)',
      '=HYPERLINK("https://a.example/x.png")',
      'https://a.example/x.png',
      '',
      null,
      42,
    ])
      expect(pictureOfFormula(f)).toBeNull();
  });
});
