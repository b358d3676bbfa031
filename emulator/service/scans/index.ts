// STUB by the lead so the app wiring compiles; the scans owner replaces this file.
import type { ServiceContext } from '../context';
import type { ScanEngine } from '../engine/types';
/** SQL creating the scans' tables (run once at start, idempotent). */
export const SCANS_SCHEMA_SQL = '';
/** Handlers of the scan and conversion operations, by OpenAPI operationId. */
export function scanHandlers(_ctx: ServiceContext, _engine: ScanEngine): Record<string, (req: any, reply: any) => unknown> {
  return {};
}
/** Starts background processing of queued scans; returns a stop function. */
export function startScanProcessor(_ctx: ServiceContext, _engine: ScanEngine): () => Promise<void> {
  return async () => {};
}
