/**
 * Hostile uploads (issue 14 item 1), over real HTTP to a service in its own process: each is
 * refused with a 413/422 that names the limit it broke, and the service process's largest
 * resident set (VmHWM, read from /proc) stays under the ceiling stated in
 * emulator/service/README.md. Memory, not time, is asserted; times are in bench/service-hostile.ts.
 */
import { spawnService, type SpawnedService } from '../../emulator/service/spawn';
import {
  blankLinesCsv,
  gigabyteSheet,
  peakRssMiB,
  priceList,
  rowThirtyMillion,
  threeMillionRows,
  type Upload,
} from '../../bench/hostile-uploads';
import { call } from './helpers';

/** The ceiling stated in emulator/service/README.md ("Memory"). */
const CEILING_MIB = 512;
const KEYS = ['hostile-key-a', 'hostile-key-b'];

let svc: SpawnedService;
beforeAll(async () => {
  // The shipped sample catalog, as a user runs it.
  svc = await spawnService({ SCAN_SERVICE_API_KEYS: KEYS.join(',') });
}, 60_000);
afterAll(() => svc?.stop());

async function upload(u: Upload, key = KEYS[0]) {
  const fd = new FormData();
  fd.append('file', new Blob([new Uint8Array(u.data)]), u.filename);
  fd.append('attributes', JSON.stringify({ mapping: { id: 0, cost: 1 }, options: { marketplace_id: 'US', name: u.what, header: true } }));
  return call(svc.url, 'POST', '/api/v3/scans', { key, body: fd });
}

test.each([
  ['XLSX whose one row is numbered 30,000,000', async () => rowThirtyMillion(), 422, /row 30,000,000 .*beyond 1,000,000 lines/],
  ['CSV of 20 MiB of blank lines', async () => blankLinesCsv(), 422, /more than 1,000,000 lines \(blank ones included\)/],
  ['XLSX of 3,000,000 tiny rows', threeMillionRows, 422, /at least 100001 data lines; a scan takes at most 100000/],
  ['XLSX of 1 MB unpacking to 1 GiB', () => gigabyteSheet(false), 413, /unpacks to more than 256 MiB/],
  [
    'XLSX unpacking to 1 GiB while declaring 1 KiB',
    () => gigabyteSheet(true),
    413,
    /unpacks to more than the 1,024 bytes its header declares/,
  ],
])(
  '%s: refused naming the limit, the service stays under its memory ceiling',
  async (_what, make, status, message) => {
    const u = await make();
    const res = await upload(u);
    expect([res.status, res.body.message]).toEqual([status, expect.stringMatching(message)]);
    expect(res.body.errors).toEqual([{ index: 0, field: 'file', message: expect.stringMatching(message) }]);
    expect(typeof res.body.limit).toBe('string');
    // Nothing was stored, and the service still answers the other account.
    expect((await call(svc.url, 'GET', '/api/v3/scans', { key: KEYS[1] })).status).toBe(200);
    expect(peakRssMiB(svc.pid)).toBeLessThan(CEILING_MIB);
  },
  120_000,
);

test('a legitimate 100,000-row price list is accepted within the same ceiling (CSV and XLSX)', async () => {
  for (const kind of ['csv', 'xlsx'] as const) {
    const res = await upload(await priceList(100_000, kind), KEYS[1]);
    expect([kind, res.status, res.body.lines]).toEqual([kind, 201, 100_000]);
    await call(svc.url, 'DELETE', `/api/v3/scans/${res.body.id}`, { key: KEYS[1] });
  }
  expect(peakRssMiB(svc.pid)).toBeLessThan(CEILING_MIB);
}, 180_000);

test("while a big upload is read, another account's requests are answered (the reader yields)", async () => {
  const big = await priceList(100_000, 'xlsx');
  let uploadDone = false;
  let answeredMeanwhile = 0;
  const pings = (async () => {
    while (!uploadDone) {
      const r = await call(svc.url, 'GET', '/api/v3/scans', { key: KEYS[1] });
      if (r.status === 200 && !uploadDone) answeredMeanwhile++;
      await new Promise((res) => setTimeout(res, 5));
    }
  })();
  const res = await upload(big);
  uploadDone = true;
  await pings;
  expect(res.status).toBe(201);
  expect(answeredMeanwhile).toBeGreaterThanOrEqual(3);
  await call(svc.url, 'DELETE', `/api/v3/scans/${res.body.id}`);
}, 120_000);
