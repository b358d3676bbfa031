/**
 * Local Scan Service, bulk areas: a 10,000-row upsert (new rows, then the same payload again)
 * and paging through 100,000 listing matches at per_page=1000, over real HTTP against a file
 * database. The rate limit is raised for the measurement only (100+ requests in a minute).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService } from '../emulator/service/server';
import { runAlone } from './run-alone';

const KEY = 'bench-key';

export async function benchServiceBulk(): Promise<Record<string, number | string>> {
  const dir = mkdtempSync(join(tmpdir(), 'scan-service-bench-'));
  const empty = { byIdentifier: () => [], byAsin: () => undefined, size: () => 0 };
  const svc = await startService(
    { port: 0, dbPath: join(dir, 'bench.sqlite'), apiKeys: [KEY], bulkRateLimitPerMinute: 1_000_000 },
    { catalog: empty },
  );
  const send = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(svc.url + path, {
      method,
      headers: { authorization: `Bearer ${KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = await res.json();
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json).slice(0, 200)}`);
    return json as any;
  };
  const batch = (b: number) => ({
    marketplace_id: 'US',
    matches: Array.from({ length: 10_000 }, (_, i) => ({
      identifier: `0${String(b * 10_000 + i).padStart(11, '0')}`,
      asin: `B0${String(b * 10_000 + i).padStart(8, '0')}`,
      is_match: i % 3 !== 0,
    })),
  });
  try {
    const ms = (t: number) => Math.round((performance.now() - t) * 10) / 10;
    let t = performance.now();
    const first = await send('POST', '/api/v3/listing-matches', batch(0));
    const upsertNew = ms(t);
    if (first.created !== 10_000) throw new Error('upsert did not create 10,000 rows');
    t = performance.now();
    const again = await send('POST', '/api/v3/listing-matches', batch(0));
    const upsertSame = ms(t);
    if (again.unchanged !== 10_000) throw new Error('repeat was not unchanged');
    for (let b = 1; b < 10; b++) await send('POST', '/api/v3/listing-matches', batch(b));
    t = performance.now();
    let seen = 0;
    let slowest = 0;
    for (let page = 1; ; page++) {
      const tp = performance.now();
      const res = await send('GET', `/api/v3/listing-matches?per_page=1000&page=${page}`);
      slowest = Math.max(slowest, ms(tp));
      seen += res.data.length;
      if (res.data.length < 1000) break;
    }
    const pagingTotal = ms(t);
    if (seen !== 100_000) throw new Error(`paged ${seen} rows, expected 100,000`);
    t = performance.now();
    await send('GET', '/api/v3/listing-matches?per_page=1000&page=100');
    const lastPage = ms(t);
    return {
      'bulk upsert 10,000 new rows (ms)': upsertNew,
      'bulk upsert 10,000 unchanged rows (ms)': upsertSame,
      'list 100,000 rows, 100 pages of 1000 (ms total)': pagingTotal,
      'list page, slowest of 100 (ms)': slowest,
      'list page 100 of 100 (ms)': lastPage,
      'rows listed': seen,
    };
  } finally {
    await svc.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) runAlone(benchServiceBulk);
