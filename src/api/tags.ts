/**
 * Tags (document 2.5, 4.4): per marketplace, the list maps ASIN -> tag names; one upsert and one
 * delete per marketplace carry every change. Not a paced area (the 30/min limit is the bulk areas').
 */
import type { ClientDeps, ServiceSettings } from './client';
import { requestJson } from './client';

export type TagMap = { [asin: string]: string[] };
export interface TagsContext {
  settings: ServiceSettings;
  deps: ClientDeps;
  deadline: number;
}
const PATH = '/api/v3/public/tags';

export function listTags(ctx: TagsContext, marketplace: string): TagMap {
  const body = requestJson(
    ctx.settings,
    ctx.deps,
    { method: 'get', path: PATH, query: { marketplace_id: marketplace }, subject: 'marketplace ' + marketplace },
    { deadline: ctx.deadline },
  );
  const out: TagMap = {};
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    for (const [asin, names] of Object.entries(body as Record<string, unknown>)) if (Array.isArray(names)) out[asin] = names.map(String);
  }
  return out;
}
export function upsertTags(ctx: TagsContext, marketplace: string, tags: TagMap): void {
  if (!Object.keys(tags).length) return;
  requestJson(
    ctx.settings,
    ctx.deps,
    { method: 'put', path: PATH, body: { marketplace_id: marketplace, tags }, subject: 'marketplace ' + marketplace },
    { deadline: ctx.deadline },
  );
}
export function deleteTags(ctx: TagsContext, marketplace: string, tags: TagMap): void {
  if (!Object.keys(tags).length) return;
  requestJson(
    ctx.settings,
    ctx.deps,
    { method: 'delete', path: PATH, body: { marketplace_id: marketplace, tags }, subject: 'marketplace ' + marketplace },
    { deadline: ctx.deadline },
  );
}
