/**
 * The service's API areas, one folder each, registered here: each brings its tables and its
 * handlers by operationId. app.ts wires the handlers to the description; server.ts creates the
 * tables. Shared infrastructure (database, errors, auth, bulk rules, multipart) is in shared/.
 */
import type { Handler, ServiceContext } from './context';
import type { ScanEngine } from './engine/types';
import { ACCOUNTS_TABLES } from './shared/accounts-tables';
import { bulkHandlers, bulkOperations, type BulkArea } from './shared/bulk';
import { SCANS_SCHEMA_SQL, scanHandlers } from './scans';
import { convertHandlers } from './convert';
import { TAGS_TABLES, tagHandlers } from './tags';
import { NOTES_TABLES, noteHandlers } from './notes';
import { listingMatches } from './listing-matches';
import { brandBlocklist } from './brand-blocklist';
import { asinBlocklist } from './asin-blocklist';
import { multipackCorrections } from './multipack-corrections';
import { WEBHOOKS_TABLES, webhookHandlers } from './webhooks';
import { LIST_OPERATIONS, type ListId } from '../../contract/lists';

export interface ServiceArea {
  /** Its folder. */
  name: string;
  /** Idempotent SQL creating its tables. */
  tables: string;
  handlers(ctx: ServiceContext, engine: ScanEngine): Record<string, Handler>;
}

/** The four bulk areas: one set of rules (shared/bulk.ts), each defined in its folder (shared/bulk-area.ts). */
export const BULK_AREAS: BulkArea[] = [listingMatches, brandBlocklist, asinBlocklist, multipackCorrections];
/** Their operations: one 422 listing every bad row, one rate limit over the four. */
export const BULK_OPERATIONS = bulkOperations(BULK_AREAS);

const bulk = (area: BulkArea): ServiceArea => ({
  name: area.name,
  tables: area.tables,
  handlers: (ctx) => bulkHandlers(ctx, [area]) as Record<string, Handler>,
});

export const AREAS: ServiceArea[] = [
  { name: 'scans', tables: SCANS_SCHEMA_SQL, handlers: (ctx, engine) => scanHandlers(ctx, engine) as Record<string, Handler> },
  { name: 'convert', tables: '', handlers: (ctx, engine) => convertHandlers(ctx, engine) as Record<string, Handler> },
  { name: 'tags', tables: TAGS_TABLES, handlers: (ctx) => tagHandlers(ctx) as Record<string, Handler> },
  { name: 'notes', tables: NOTES_TABLES, handlers: (ctx) => noteHandlers(ctx) as Record<string, Handler> },
  ...BULK_AREAS.map(bulk),
  { name: 'webhooks', tables: WEBHOOKS_TABLES, handlers: (ctx) => webhookHandlers(ctx) as Record<string, Handler> },
];

/**
 * The path of each list kind's area in the description (`doc`): the path of the operation that
 * lists it (contract/lists.ts), under which all its operations sit. Throws for a kind whose
 * operation the description lacks, so a kind half added is an error, never a path left out.
 */
export function listAreaPaths(doc: Record<string, any>): { [id in ListId]: string } {
  const docPaths = doc.paths as Record<string, Record<string, { operationId?: string } | undefined>>;
  const out: Partial<Record<ListId, string>> = {};
  for (const id of Object.keys(LIST_OPERATIONS) as ListId[]) {
    const path = Object.keys(docPaths).find((p) => Object.values(docPaths[p]).some((op) => op?.operationId === LIST_OPERATIONS[id]));
    if (!path) throw new Error(`List kind "${id}": operation ${LIST_OPERATIONS[id]} is not in the API description.`);
    out[id] = path;
  }
  return out as { [id in ListId]: string };
}

/** A request to any list kind's area (its path, then `/`, `?` or the end): what the worker's front door answers itself. */
export function listAreaPattern(doc: Record<string, any>): RegExp {
  const paths = Object.values(listAreaPaths(doc)).map((p) => p.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
  return new RegExp('^(' + paths.join('|') + ')(\\/|\\?|$)');
}

/** Every table of the service: accounts first, then each area's. */
export const SERVICE_TABLES: string[] = [ACCOUNTS_TABLES, ...AREAS.map((a) => a.tables)];

/** Every handler of the service, by operationId. */
export function operationHandlers(ctx: ServiceContext, engine: ScanEngine): Record<string, Handler> {
  return Object.assign({}, ...AREAS.map((a) => a.handlers(ctx, engine)));
}
