/**
 * Fixtures of the scan and conversion tests: a small catalog file with known products, a local
 * service started on a free port over it, and HTTP helpers. Everything goes over real HTTP.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, type RunningService } from '../../emulator/service/server';
import type { ServiceConfig } from '../../emulator/service/context';

/** A valid UPC-A from a number (GS1 check digit). */
export function upc(n: number): string {
  const body = String(n).padStart(11, '0');
  let sum = 0;
  for (let i = body.length - 1, w = 3; i >= 0; i--, w = w === 3 ? 1 : 3) sum += Number(body[i]) * w;
  return body + ((10 - (sum % 10)) % 10);
}

const dims = { length: 8, width: 6, height: 2, weight: 0.9 };

function product(asin: string, over: Record<string, unknown>): Record<string, unknown> {
  return {
    marketplace_id: 1,
    asin,
    title: `Product ${asin}`,
    brand: 'Acme',
    color: null,
    size_name: null,
    category: 'Home & Kitchen',
    rank: 5000,
    buybox_price: 2999,
    lowest_price_new_fba: 2999,
    lowest_price_new_fbm: 3199,
    lowest_price_used_fba: null,
    lowest_price_used_fbm: null,
    competitive_sellers: 3,
    new_fba_offers_count: 2,
    new_fbm_offers_count: 1,
    total_offers_count: 3,
    market_pack_quantity: 1,
    number_of_variations: 0,
    parent_asin: null,
    is_hazmat: false,
    is_meltable: false,
    is_adult: false,
    package_dimensions: dims,
    item_dimensions: dims,
    identifiers: {},
    images: ['img' + asin],
    fees_available: true,
    inbound_eligibility: { eligible: true, updated_at: 1700000000, ineligible_codes: [] },
    ...over,
  };
}

/** Known products (US unless said): identifiers are UPCs from `upc(n)`. */
/** A second, different identifier (EAN-13) of P.cheap. */
export const CHEAP_EAN = '4006381333931';

export const P = {
  plain: { asin: 'B000PLAIN1', upc: upc(1001) },
  /** Two ASINs share one UPC; the second has the brand "BlockCo". */
  sharedA: { asin: 'B000SHARE1', upc: upc(1002) },
  sharedB: { asin: 'B000SHARE2', upc: upc(1002), brand: 'BlockCo' },
  /** Same brand spelled in another case. */
  caseBrand: { asin: 'B000CASEB1', upc: upc(1003), brand: 'blockco' },
  multipack: { asin: 'B000MULTI6', upc: upc(1004), pack: 6 },
  hazmat: { asin: 'B000HAZMA1', upc: upc(1005) },
  noFees: { asin: 'B000NOFEE1', upc: upc(1006) },
  cheap: { asin: 'B000CHEAP1', upc: upc(1007) },
  canada: { asin: 'B000CANAD1', upc: upc(1008) },
};
/** Filler products `upc(2000 + i)`, i < FILLER, with prices rising with i. */
export const FILLER = 400;
export const fillerAsin = (i: number) => 'B1' + String(i).padStart(8, '0');

export function writeTestCatalog(): string {
  const dir = mkdtempSync(join(tmpdir(), 'scan-catalog-'));
  const recs = [
    product(P.plain.asin, {
      identifiers: { upc: [P.plain.upc] },
      history: {
        bsr: [4000, 4500, 5000, 5500],
        price: [2899, 2950, 2999, 3050],
        instock_rate: [9000, 9100, 9200, 9300],
        rank_drops: [30, 55, 80, 160],
      },
    }),
    product(P.sharedA.asin, { identifiers: { upc: [P.sharedA.upc] }, rank: 100 }),
    product(P.sharedB.asin, { identifiers: { upc: [P.sharedB.upc] }, rank: 200, brand: 'BlockCo' }),
    product(P.caseBrand.asin, { identifiers: { upc: [P.caseBrand.upc] }, brand: 'blockco' }),
    product(P.multipack.asin, {
      identifiers: { upc: [P.multipack.upc] },
      market_pack_quantity: 6,
      buybox_price: 8999,
      lowest_price_new_fba: 8999,
    }),
    product(P.hazmat.asin, { identifiers: { upc: [P.hazmat.upc] }, is_hazmat: true }),
    product(P.noFees.asin, { identifiers: { upc: [P.noFees.upc] }, fees_available: false }),
    product(P.cheap.asin, {
      identifiers: { upc: [P.cheap.upc], ean: [CHEAP_EAN] },
      buybox_price: 999,
      lowest_price_new_fba: 999,
      brand: 'Zeta',
    }),
    product(P.canada.asin, { marketplace_id: 2, identifiers: { upc: [P.canada.upc] } }),
  ];
  for (let i = 0; i < FILLER; i++) {
    recs.push(
      product(fillerAsin(i), {
        identifiers: { upc: [upc(2000 + i)] },
        buybox_price: 1500 + i * 10,
        lowest_price_new_fba: 1500 + i * 10,
        rank: 1000 + i,
      }),
    );
  }
  const path = join(dir, 'catalog.jsonl');
  writeFileSync(path, recs.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return path;
}

let catalogPath: string | undefined;
export const KEY_A = 'scan-key-a';
export const KEY_B = 'scan-key-b';
/** Limited to CA. */
export const KEY_CA = 'scan-key-ca';

export async function startTestService(over: Partial<ServiceConfig> = {}): Promise<RunningService> {
  catalogPath ??= writeTestCatalog();
  return startService({
    host: '127.0.0.1',
    port: 0,
    dbPath: ':memory:',
    apiKeys: [KEY_A, KEY_B, `${KEY_CA}:CA`],
    catalogPath,
    scanSpeedPerMinute: 0,
    webhookRetryDelaysMs: [50, 50, 50],
    webhookTimeoutMs: 2000,
    ...over,
  });
}

export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Headers;
  raw: Buffer;
}

export class Client {
  constructor(
    readonly base: string,
    readonly key: string,
  ) {}

  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer<T>> {
    const init: RequestInit = { method, headers: { authorization: `Bearer ${this.key}`, ...headers } };
    if (body !== undefined) {
      if (body instanceof FormData) init.body = body;
      else if (typeof body === 'string') {
        init.body = body;
        (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
      } else {
        init.body = JSON.stringify(body);
        (init.headers as Record<string, string>)['content-type'] = 'application/json';
      }
    }
    const res = await fetch(this.base + path, init);
    const raw = Buffer.from(await res.arrayBuffer());
    const type = res.headers.get('content-type') ?? '';
    const parsed = type.includes('json') && raw.length ? JSON.parse(raw.toString('utf8')) : raw.toString('utf8');
    return { status: res.status, body: parsed, headers: res.headers, raw };
  }

  get = <T = any>(path: string) => this.request<T>('GET', path);
  post = <T = any>(path: string, body?: unknown) => this.request<T>('POST', path, body);
  del = <T = any>(path: string, body?: unknown) => this.request<T>('DELETE', path, body);

  /** POST /api/v3/scans with a file (text or bytes) and attributes (object, or raw text). */
  upload(file: string | Buffer | null, attributes: unknown, filename = 'list.csv', type = 'text/csv') {
    const form = new FormData();
    if (file !== null) form.append('file', new Blob([typeof file === 'string' ? file : new Uint8Array(file)], { type }), filename);
    if (attributes !== undefined) form.append('attributes', typeof attributes === 'string' ? attributes : JSON.stringify(attributes));
    return this.request('POST', '/api/v3/scans', form);
  }

  /** Polls the scan until its status is one of `statuses` (bounded). */
  async waitFor(id: number, statuses = ['success', 'error', 'cancelled'], timeoutMs = 15000): Promise<any> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const r = await this.get(`/api/v3/scans/${id}`);
      if (r.status !== 200) throw new Error(`GET scan ${id}: ${r.status} ${JSON.stringify(r.body)}`);
      if (statuses.includes(r.body.status)) return r.body;
      if (Date.now() > end) throw new Error(`scan ${id} still ${r.body.status} after ${timeoutMs} ms`);
      await new Promise((res) => setTimeout(res, 20));
    }
  }

  /** Uploads and waits for the scan to finish; returns the finished record. */
  async scan(csv: string, attributes: unknown): Promise<any> {
    const up = await this.upload(csv, attributes);
    if (up.status !== 201) throw new Error(`upload: ${up.status} ${JSON.stringify(up.body)}`);
    return this.waitFor(up.body.id);
  }

  results(id: number, body: unknown = {}) {
    return this.post(`/api/v3/scans/${id}`, body);
  }
}

/** Minimal attributes: identifier in column 0, cost in column 1. */
export function attrs(options: Record<string, unknown> = {}, mapping: Record<string, unknown> = {}) {
  return { mapping: { id: 0, cost: 1, ...mapping }, options: { marketplace_id: 'US', name: 'Test scan', ...options } };
}

/** A CSV from rows of cells. */
export const csv = (rows: (string | number)[][]) => rows.map((r) => r.join(',')).join('\n') + '\n';
