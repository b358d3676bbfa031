/** Numbers, times and statuses as the sidebar shows them. */
import type { ScanProgress, ScanStatus } from '../src/app/protocol';
import { commas } from '../contract/numbers';

export function num(n: number | null | undefined): string {
  return typeof n === 'number' && isFinite(n) ? commas(n) : '–';
}

export function plural(n: number, one: string, many = one + 's'): string {
  return num(n) + ' ' + (n === 1 ? one : many);
}

/** "about 3 min left", "under a minute left", '' when unknown. */
export function timeLeft(seconds: number | null): string {
  if (seconds === null || !isFinite(seconds) || seconds < 0) return '';
  if (seconds < 60) return 'under a minute left';
  const min = Math.round(seconds / 60);
  if (min < 90) return 'about ' + min + ' min left';
  return 'about ' + Math.round(min / 60) + ' h ' + (min % 60) + ' min left';
}

export function when(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (isNaN(d.getTime())) return '';
  return (
    d.toLocaleDateString('en-US', { month: 'short', day: 'numeric' }) +
    ', ' +
    d.toLocaleTimeString('en-US', { hour: '2-digit', minute: '2-digit' })
  );
}

const STATUS: Record<ScanStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  success: 'Done',
  error: 'Failed',
  cancelled: 'Cancelled',
};
export function statusLabel(s: ScanStatus): string {
  return STATUS[s] || String(s);
}

export function isActive(p: ScanProgress): boolean {
  return p.status === 'queued' || p.status === 'running';
}

/** "120 of 500 rows · 60 products/min · about 7 min left" (speed is products per minute) */
export function progressLine(p: ScanProgress): string {
  const parts = [num(p.done) + ' of ' + plural(p.lines, 'row')];
  if (p.speed > 0) parts.push(num(Math.round(p.speed)) + ' products/min');
  const left = timeLeft(p.secondsLeft);
  if (left) parts.push(left);
  return parts.join(' · ');
}

/** "480 products · 20 errors" */
export function countsLine(p: ScanProgress): string {
  return plural(p.lines, 'row') + ' · ' + plural(p.products, 'product') + ' · ' + plural(p.errors, 'error');
}

export function percent(p: ScanProgress): number {
  return p.lines > 0 ? Math.max(0, Math.min(100, (p.done / p.lines) * 100)) : 0;
}
