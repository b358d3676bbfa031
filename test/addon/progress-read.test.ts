/**
 * Pure parts of src/app/scan (progress-read.ts, running.ts): reading scan records tolerantly (the real service may differ
 * from the stand-in in its silent parts) and the running-scan record's format and cap.
 */
import { isoTime, mapStatus, progressFromScan } from '../../src/app/scan/progress-read';
import { addRecord, decodeRecords } from '../../src/app/scan/running';
import { RUNNING_MAX_RECORDS as MAX_RECORDS } from '../../src/store/keys';

describe('progressFromScan', () => {
  const record = {
    id: 12,
    name: 'March list',
    status: 'in_progress',
    marketplace: 'US',
    marketplace_id: 1,
    lines: 300,
    lines_done: 120,
    products: 118,
    errors: 2,
    speed: 60,
    created_at: '2026-11-20T23:30:05',
    completed_at: null,
  };

  test("the stand-in's record: rows done of lines, speed (products per minute), time left from the lines still to do at the lines rate", () => {
    expect(progressFromScan(record)).toEqual({
      scanId: 12,
      name: 'March list',
      status: 'running',
      marketplace: 'US',
      lines: 300,
      done: 120,
      products: 118,
      errors: 2,
      speed: 60,
      // 60 products a minute over 118 products from 120 lines: 61.02 lines a minute; 180 lines left.
      secondsLeft: 177,
      createdAt: '2026-11-20T23:30:05.000Z',
      completedAt: null,
      resultSheet: null,
    });
  });

  test('tolerated: a data envelope, numbers as strings, the vendor\'s "InProgress", only a numeric marketplace id', () => {
    const p = progressFromScan({
      data: { ...record, id: '12', lines: '300', status: 'InProgress', marketplace: undefined, marketplace_id: 2 },
    });
    expect(p).toEqual(expect.objectContaining({ scanId: 12, lines: 300, status: 'running', marketplace: 'CA' }));
  });

  test('speed counts products, not lines: lines that give no product slow the scan down, several products per line speed it up', () => {
    // 1 product per 4 lines at 30 products a minute: 120 lines a minute, 100 lines left = 50 s.
    expect(progressFromScan({ ...record, lines: 200, lines_done: 100, products: 25, errors: 75, speed: 30 })!.secondsLeft).toBe(50);
    // 3 products per line at 90 products a minute: 30 lines a minute, 15 lines left = 30 s.
    expect(progressFromScan({ ...record, lines: 30, lines_done: 15, products: 45, errors: 0, speed: 90 })!.secondsLeft).toBe(30);
  });

  test('no product yet (every line so far failed), no line done or no speed: time left unknown, not 0 or infinite', () => {
    expect(progressFromScan({ ...record, products: 0, errors: 120, speed: 0 })!.secondsLeft).toBeNull();
    expect(progressFromScan({ ...record, products: 0, errors: 120, speed: 5 })!.secondsLeft).toBeNull();
    expect(progressFromScan({ ...record, lines_done: 0, products: 0, speed: 0 })!.secondsLeft).toBeNull();
    expect(progressFromScan({ ...record, speed: 0 })!.secondsLeft).toBeNull();
    // A running scan with every line done (finishing): nothing left.
    expect(progressFromScan({ ...record, lines_done: 300 })!.secondsLeft).toBe(0);
  });

  test('queued: time left unknown; finished: 0 left, completedAt as ISO; success without lines_done counts all lines done', () => {
    expect(progressFromScan({ ...record, status: 'queued', speed: 0, lines_done: 0 })!.secondsLeft).toBeNull();
    const done = progressFromScan({ ...record, status: 'success', lines_done: undefined, completed_at: '2026-11-20T23:35:00Z' })!;
    expect(done).toEqual(
      expect.objectContaining({ status: 'success', done: 300, secondsLeft: 0, completedAt: '2026-11-20T23:35:00.000Z' }),
    );
  });

  test("a scan the service ended with an error carries the card's line saying what importing does; others none", () => {
    expect(progressFromScan({ ...record, status: 'error' })!.note).toBe(
      'The Scan Service ended this scan with an error. Importing shows what it could use and, in an errors tab, what not.',
    );
    expect(progressFromScan({ ...record, status: 'success' })!.note).toBeUndefined();
  });

  test('no id, or not an object: null', () => {
    expect(progressFromScan({ name: 'x' })).toBeNull();
    expect(progressFromScan('oops')).toBeNull();
    expect(progressFromScan([record])).toBeNull();
  });
});

test("mapStatus: the service's words and common variants", () => {
  expect(
    ['queued', 'in_progress', 'InProgress', 'running', 'success', 'completed', 'error', 'failed', 'cancelled', 'canceled'].map(mapStatus),
  ).toEqual(['queued', 'running', 'running', 'running', 'success', 'success', 'error', 'error', 'cancelled', 'cancelled']);
});

test('isoTime: zone-less service times are UTC; unreadable is empty', () => {
  expect(isoTime('2026-01-02T03:04:05')).toBe('2026-01-02T03:04:05.000Z');
  expect(isoTime('2026-01-02 03:04:05')).toBe('2026-01-02T03:04:05.000Z');
  expect(isoTime('2026-01-02T03:04:05+02:00')).toBe('2026-01-02T01:04:05.000Z');
  expect(isoTime('yesterday')).toBe('');
  expect(isoTime(null)).toBe('');
});

describe('running-scan record', () => {
  test('decoding keeps only well-formed entries; garbage is an empty record', () => {
    expect(decodeRecords('{"5":{"u":"abc","t":10},"x":{"u":"a","t":1},"6":{"t":3},"7":{"u":"d","t":"20"}}')).toEqual({
      '5': { u: 'abc', t: 10 },
      '7': { u: 'd', t: 20 },
    });
    expect(decodeRecords('not json')).toEqual({});
    expect(decodeRecords(null)).toEqual({});
  });

  test(`at most ${MAX_RECORDS} entries: the oldest go first; the value stays far below 9 KB`, () => {
    let r = {};
    for (let i = 1; i <= MAX_RECORDS + 5; i++) r = addRecord(r, 1000 + i, 'c8cd3c642730', 1795220920825 + i);
    expect(Object.keys(r)).toHaveLength(MAX_RECORDS);
    expect(Object.keys(r)).not.toContain('1001');
    expect(Object.keys(r)).toContain(String(1000 + MAX_RECORDS + 5));
    expect(Buffer.byteLength(JSON.stringify(r))).toBeLessThan(9216 / 3);
  });
});
