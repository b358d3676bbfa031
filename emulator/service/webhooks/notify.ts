// STUB by the lead; the service-core owner implements delivery (document section 6).
import type { ServiceContext } from '../context';
/** The `scan` member of a scan.complete payload (document section 6). */
export interface ScanCompleteInfo {
  id: number;
  name: string;
  status: 'success' | 'error' | 'cancelled';
  marketplace_id: number;
  products: number;
  errors: number;
  speed: number;
  lines: number;
  created_at: string;
  completed_at: string;
}
/** Queues scan.complete deliveries to the account's active subscribed webhooks; never throws. */
export function notifyScanComplete(_ctx: ServiceContext, _accountId: number, _scan: ScanCompleteInfo): void {}
export function stopDeliveries(_ctx: ServiceContext): void {}
