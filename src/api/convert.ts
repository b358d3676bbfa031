/**
 * Identifier conversion endpoints (document 4.2): POST /api/v3/convert (UPC/EAN/ISBN -> ASIN, 20 ids
 * per call) and POST /api/v3/asin-convert (ASIN -> identifiers, 1,000 per call). Splits the ids into
 * batches at those ceilings, sends them with sendAll and answers per id: found, not found, or failed
 * with the problem of its batch, so one bad batch never spoils the others.
 */
import { sendAll, type ApiCall, type ApiContext, type SendOptions } from './client';
import { requestJson } from './exceptions';
import { unreadable, type Problem } from './problems';
import { readAsinConvertResponse, readConvertResponse } from './read';
import { ASIN_CONVERT_MAX_ASINS, CONVERT_MAX_IDS, type AsinConvertRequest, type ConvertRequest } from './types';

export type IdOutcome<T> = { status: 'found'; value: T } | { status: 'not-found' } | { status: 'failed'; problem: Problem };

export const CONVERT_PATH = '/api/v3/convert';
export const ASIN_CONVERT_PATH = '/api/v3/asin-convert';

/** Splits into consecutive pieces of at most `size`. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

interface Endpoint<T> {
  path: string;
  max: number;
  body(marketplace: string, ids: string[]): unknown;
  read(body: unknown, ids: readonly string[]): Map<string, T> | undefined;
}

const CONVERT: Endpoint<string[]> = {
  path: CONVERT_PATH,
  max: CONVERT_MAX_IDS,
  body: (marketplace, ids): ConvertRequest => ({ marketplace, ids }),
  read: readConvertResponse,
};

const ASIN_CONVERT: Endpoint<Record<string, string[]>> = {
  path: ASIN_CONVERT_PATH,
  max: ASIN_CONVERT_MAX_ASINS,
  body: (marketplace, asins): AsinConvertRequest => ({ marketplace, asins }),
  read: readAsinConvertResponse,
};

function convertCall<T>(ep: Endpoint<T>, marketplace: string, ids: string[]): ApiCall {
  return { method: 'post', path: ep.path, body: ep.body(marketplace, ids), subject: 'marketplace ' + marketplace };
}

/** One asin-convert call of the given ASINs, its body or the API exception (Settings' "Test connection": the cheapest authenticated call that also proves access to the marketplace). */
export function probeAsinConvert(ctx: ApiContext, marketplace: string, asins: string[], opts?: SendOptions): unknown {
  return requestJson(ctx, convertCall(ASIN_CONVERT, marketplace, asins), opts);
}

function run<T>(
  ep: Endpoint<T>,
  ctx: ApiContext,
  marketplace: string,
  ids: readonly string[],
  opts?: SendOptions,
): Map<string, IdOutcome<T>> {
  const out = new Map<string, IdOutcome<T>>();
  let batches = chunk(Array.from(new Set(ids)), ep.max);
  // A 422 naming rows is answered once more without those rows; a second 422 fails the batch.
  for (let round = 0; round < 2 && batches.length > 0; round++) {
    const calls: ApiCall[] = batches.map((b) => convertCall(ep, marketplace, b));
    const results = sendAll(ctx, calls, opts);
    const again: string[][] = [];
    results.forEach((r, i) => {
      const batch = batches[i];
      if (r.ok) {
        const found = ep.read(r.body, batch);
        if (!found) {
          const p = unreadable(r.status, 'unexpected shape');
          for (const id of batch) out.set(id, { status: 'failed', problem: p });
          return;
        }
        for (const id of batch) {
          const v = found.get(id);
          out.set(id, v === undefined ? { status: 'not-found' } : { status: 'found', value: v });
        }
        return;
      }
      const p = r.problem;
      const named =
        p.kind === 'validation' && round === 0 ? (p.rows ?? []).filter((row) => row.index >= 0 && row.index < batch.length) : [];
      if (named.length > 0) {
        const bad = new Set<number>();
        for (const row of named) {
          bad.add(row.index);
          out.set(batch[row.index], {
            status: 'failed',
            problem: { ...p, message: `Refused by the Scan Service: ${row.message}`, rows: [row] },
          });
        }
        const rest = batch.filter((_id, j) => !bad.has(j));
        if (rest.length) again.push(rest);
        return;
      }
      for (const id of batch) out.set(id, { status: 'failed', problem: p });
    });
    batches = again;
  }
  return out;
}

/** UPC/EAN/ISBN -> [ASIN, other identifiers...], per distinct id. */
export function convertIds(
  ctx: ApiContext,
  marketplace: string,
  ids: readonly string[],
  opts?: SendOptions,
): Map<string, IdOutcome<string[]>> {
  return run(CONVERT, ctx, marketplace, ids, opts);
}

/** ASIN -> { upc: [...], ean: [...], ... } (kinds in lower case), per distinct ASIN. */
export function convertAsins(
  ctx: ApiContext,
  marketplace: string,
  asins: readonly string[],
  opts?: SendOptions,
): Map<string, IdOutcome<Record<string, string[]>>> {
  return run(ASIN_CONVERT, ctx, marketplace, asins, opts);
}
