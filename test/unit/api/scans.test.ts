/**
 * The scans API's tolerant readers (src/api/scans.ts): the local service's shapes and the vendor
 * client's (service-silent-parts.md) read alike; and the one id validator and the calls' paths.
 */
import { checkScanId, readResultsPage, readScan, readScanList, readStatus, scanCalls } from '../../../src/api/scans';

describe('status words', () => {
  test.each([
    ['success', 'success'],
    ['Success', 'success'],
    ['SUCCESS', 'success'],
    ['InProgress', 'running'],
    ['in_progress', 'running'],
    ['IN-PROGRESS', 'running'],
    ['queued', 'queued'],
    ['Queued', 'queued'],
    ['Error', 'error'],
    ['error', 'error'],
    ['Cancelled', 'cancelled'],
    ['canceled', 'cancelled'],
    [null, 'running'],
    [undefined, 'running'],
    ['Rerunning', 'running'],
  ])('%p reads as %p', (word, state) => {
    expect(readStatus(word)).toBe(state);
  });
});

describe('a scan record', () => {
  const local = {
    id: 7,
    name: 'List',
    status: 'in_progress',
    marketplace: 'US',
    marketplace_id: 1,
    lines: 40,
    lines_done: 12,
    products: 5,
    errors: 6,
    speed: 30,
    options: { name: 'List' },
    mapping: { id: 0 },
  };
  const vendor = {
    id: 7,
    user_id: 1,
    account_id: 1,
    marketplace: 'US',
    status: 'InProgress',
    source_type: 'Upload',
    source_id: null,
    name: 'List',
    products: 5,
    errors: 6,
    speed: 30,
    lines: 40,
    options: null,
  };

  test("the local service's record as it is", () => {
    expect(readScan(local)).toEqual(
      expect.objectContaining({
        id: 7,
        status: 'running',
        lines: 40,
        linesDone: 12,
        products: 5,
        errors: 6,
        speed: 30,
        marketplace: 'US',
        marketplaceId: 1,
      }),
    );
  });

  test("the vendor's record, without lines done: the lines that gave a product or an error so far", () => {
    expect(readScan(vendor)).toEqual(
      expect.objectContaining({ id: 7, status: 'running', lines: 40, linesDone: 11, options: {}, mapping: {}, marketplaceId: null }),
    );
    expect(readScan({ ...vendor, status: 'Success', products: 30, errors: 8 })!.linesDone).toBe(40);
    expect(readScan({ ...vendor, status: 'Queued', products: 0, errors: 0 })!.linesDone).toBe(0);
    // Never more than the lines (blocklisted rows are in neither count; a product line may give several rows).
    expect(readScan({ ...vendor, products: 50, errors: 3 })!.linesDone).toBe(40);
  });

  test('members absent or null, a `data` envelope, numbers as text; no id: null', () => {
    expect(readScan({ data: { id: '9', name: null, status: null, lines: '12', products: null, speed: null } })).toEqual(
      expect.objectContaining({
        id: 9,
        name: '',
        status: 'running',
        lines: 12,
        linesDone: 0,
        products: 0,
        errors: 0,
        speed: 0,
        marketplace: '',
      }),
    );
    expect(readScan({ name: 'no id' })).toBeNull();
    expect(readScan(null)).toBeNull();
  });
});

describe('a list page', () => {
  const rec = (id: number) => ({ id, status: 'Success', lines: 3 });
  test("the contract's shape", () => {
    const r = readScanList({ data: [rec(1), rec(2)], total: 30, page: 1, per_page: 25 });
    expect(r.scans.map((s) => s.id)).toEqual([1, 2]);
    expect([r.total, r.perPage]).toEqual([30, 25]);
  });
  test("the vendor's shape: pagination apart", () => {
    const r = readScanList({ data: [rec(1)], total: 26, pagination: { page: 2, per_page: 25 } });
    expect([r.scans.length, r.total, r.perPage]).toEqual([1, 26, 25]);
  });
  test('unreadable records left out', () => {
    const r = readScanList({ data: [rec(4), { nope: true }, null], total: 3 });
    expect(r.scans.map((s) => s.id)).toEqual([4]);
  });
  test('nothing readable: an empty page', () => {
    expect(readScanList('x')).toEqual({ scans: [], total: 0, perPage: 0 });
  });
});

test('a results page needs its rows and a count; options may be absent or null', () => {
  expect(readResultsPage({ count: 2, data: [{}, {}], meta: {}, options: null })).toEqual({ count: 2, data: [{}, {}], options: {} });
  expect(() => readResultsPage({ data: [] })).toThrow('The Scan Service sent results the add-on cannot read.');
});

test('one id validator for every scan call', () => {
  expect(checkScanId(12)).toBe(12);
  expect(checkScanId('12')).toBe(12);
  expect(() => checkScanId('12; DROP')).toThrow('Not a scan number: 12; DROP.');
  expect(() => checkScanId(0)).toThrow('Not a scan number: 0.');
});

test("the calls: the document's paths and methods", () => {
  expect(scanCalls.get(3)).toMatchObject({ method: 'get', path: '/api/v3/scans/3' });
  expect(scanCalls.cancel(3)).toMatchObject({ method: 'get', path: '/api/v3/scans/3/cancel' });
  expect(scanCalls.remove(3)).toMatchObject({ method: 'delete', path: '/api/v3/scans/3' });
  expect(scanCalls.list(2, 25)).toMatchObject({ method: 'get', path: '/api/v3/scans', query: { page: 2, per_page: 25 } });
  expect(scanCalls.download(3, 'csv')).toMatchObject({ method: 'post', path: '/api/v3/scans/3/download', query: { type: 'csv' } });
  expect(scanCalls.export(3)).toMatchObject({ method: 'post', path: '/api/v3/scans/3/export' });
  expect(scanCalls.results(3, 'products', 2, 100, { filters: [{ name: 'profit', operator: '>', value: 100 }], sort: '-roi' }).body).toEqual(
    {
      page: 2,
      per_page: 100,
      tableType: 'products',
      filter: [{ name: 'profit', operator: '>', value: 100 }],
      sort: '-roi',
    },
  );
  // Errors always come every one, by file line.
  expect(scanCalls.results(3, 'errors', 1, 100, { filters: [{ name: 'profit', operator: '>', value: 1 }], sort: '-roi' }).body).toEqual({
    page: 1,
    per_page: 100,
    tableType: 'errors',
    sort: 'line',
  });
});
