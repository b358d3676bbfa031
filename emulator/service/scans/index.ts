/**
 * Scans and identifier conversion: the operations of openapi/areas/scans.yaml and convert.yaml,
 * their tables, and the background processor that works through queued scans.
 */
import type { ServiceContext } from '../context';
import type { ScanEngine } from '../engine/types';
import { convertHandlers } from '../convert';
import { scanOperationHandlers } from './handlers';

export { SCANS_SCHEMA_SQL } from './schema';
export { startScanProcessor } from './processor';

/** Handlers of the scan and conversion operations, by OpenAPI operationId. */
export function scanHandlers(ctx: ServiceContext, engine: ScanEngine): Record<string, (req: any, reply: any) => unknown> {
  return { ...scanOperationHandlers(ctx, engine), ...convertHandlers(ctx, engine) };
}
