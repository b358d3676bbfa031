/**
 * A scan record (any shape the tolerant reader of src/api/scans.ts accepts) as the sidebar's
 * progress. Pure. `speed` is products per minute (contract, section 6), not lines: time left is
 * estimated from the lines rate, speed * lines done / products (see secondsLeftOf).
 */
import { isFinishedState, readScan, readStatus, type ScanRecord } from '../../api/scans';
import { findMarketplace } from '../../../contract/marketplaces';
import type { ScanProgress, ScanStatus } from './protocol';

/** The service's status words to the sidebar's (the one status reader, src/api/scans.ts). */
export const mapStatus: (v: unknown) => ScanStatus = readStatus;

/** `YYYY-MM-DDTHH:MM:SS` (UTC without zone, as the service writes created_at) or ISO -> ISO with Z; '' when unreadable. */
export function isoTime(v: unknown): string {
  if (typeof v !== 'string' || !v.trim()) return '';
  let t = v.trim().replace(' ', 'T');
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(t)) t += 'Z';
  const ms = Date.parse(t);
  return isNaN(ms) ? '' : new Date(ms).toISOString();
}

/**
 * Seconds left of a running scan, or null when unknown. The service reports products per minute of
 * its processing time; lines per minute = speed * done / products (the ratio of lines to products so
 * far), so left = (lines - done) / that * 60. Unknown (null) while no product was produced, nothing
 * done or no speed yet. Chosen over lines_done / (now - created_at): that would count time spent
 * queued and depend on the service's and Apps Script's clocks agreeing.
 */
export function secondsLeftOf(lines: number, done: number, products: number, speed: number): number | null {
  if (!(speed > 0 && products > 0 && done > 0) || lines < done) return null;
  // Integer arithmetic up to the one division, so an exact result is not pushed up by rounding.
  return Math.ceil(((lines - done) * products * 60) / (speed * done));
}

/** A scan record (any tolerated shape) to the sidebar's progress; null when it has no id. */
export function progressFromScan(body: unknown): ScanProgress | null {
  const r = readScan(body);
  return r ? progressFromRecord(r) : null;
}

/** The card's line under a scan the service ended with an error. */
export const ERROR_SCAN_NOTE =
  'The Scan Service ended this scan with an error. Importing shows what it could use and, in an errors tab, what not.';

/** A read scan record to the sidebar's progress. */
export function progressFromRecord(r: ScanRecord): ScanProgress {
  const { status, lines, linesDone: done, products, speed } = r;
  const market = findMarketplace(r.marketplace) ?? findMarketplace(r.marketplaceId);
  let secondsLeft: number | null = null;
  if (isFinishedState(status)) secondsLeft = 0;
  else if (status === 'running') secondsLeft = secondsLeftOf(lines, done, products, speed);
  const completed = isoTime(r.completedAt);
  return {
    scanId: r.id,
    name: r.name,
    status,
    marketplace: market ? market.code : typeof r.marketplace === 'string' ? r.marketplace : '',
    lines,
    done: Math.min(done, lines || done),
    products,
    errors: r.errors,
    speed,
    secondsLeft,
    createdAt: isoTime(r.createdAt),
    completedAt: completed || null,
    resultSheet: null,
    // Said on the card (sent rather than kept in the sidebar page, whose size is bounded).
    ...(status === 'error' ? { note: ERROR_SCAN_NOTE } : {}),
  };
}
