/**
 * Tags (document 2.5, 4.4): per marketplace, the list maps ASIN -> tag names; one upsert and one
 * delete per marketplace carry every change. Not a paced area (the 30/min limit is the bulk areas').
 */
import type { components } from '../../contract/schema';
import type { ApiCall, ApiContext } from './client';
import { requestJson } from './exceptions';

export type TagMap = components['schemas']['TagMap'];
const PATH = '/api/v3/public/tags';

/** One tags call about one marketplace (403/404 messages name it). */
function request(ctx: ApiContext, marketplace: string, call: Pick<ApiCall, 'method' | 'query' | 'body'>): unknown {
  return requestJson(ctx, { ...call, path: PATH, subject: 'marketplace ' + marketplace });
}

export function listTags(ctx: ApiContext, marketplace: string): TagMap {
  const body = request(ctx, marketplace, { method: 'get', query: { marketplace_id: marketplace } });
  const out: TagMap = {};
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    for (const [asin, names] of Object.entries(body as Record<string, unknown>)) if (Array.isArray(names)) out[asin] = names.map(String);
  }
  return out;
}

/** Assigns (`put`) or removes (`delete`) the tags of one marketplace in one request; nothing to send, no request. */
export function writeTags(ctx: ApiContext, method: 'put' | 'delete', marketplace: string, tags: TagMap): void {
  if (Object.keys(tags).length) request(ctx, marketplace, { method, body: { marketplace_id: marketplace, tags } });
}
