/**
 * Scans: the operations of contract/openapi/areas/scans.yaml, their tables, and the background
 * processor that works through queued scans.
 */
import type { ServiceContext } from '../context';
import type { ScanEngine } from '../engine/types';
import { scanOperationHandlers } from './routes';

export { SCANS_SCHEMA_SQL } from './tables';
export { startScanProcessor } from './processor';

/** Handlers of the scan operations, by OpenAPI operationId. */
export function scanHandlers(ctx: ServiceContext, engine: ScanEngine): Record<string, (req: any, reply: any) => unknown> {
  return scanOperationHandlers(ctx, engine);
}
