/** The service's time formats (document 2.4, 2.6, 6): one place for all of them. */
const pad = (n: number) => String(n).padStart(2, '0');
const parts = (d: Date) =>
  [
    d.getUTCFullYear(),
    pad(d.getUTCMonth() + 1),
    pad(d.getUTCDate()),
    pad(d.getUTCHours()),
    pad(d.getUTCMinutes()),
    pad(d.getUTCSeconds()),
  ] as const;

/** `YYYY-MM-DD HH:MM:SS` (notes, listing matches), UTC. */
export function sqlTime(d: Date): string {
  const [y, mo, da, h, mi, s] = parts(d);
  return `${y}-${mo}-${da} ${h}:${mi}:${s}`;
}
/** `YYYY-MM-DDTHH:MM:SS`, no zone suffix (webhooks, scan created_at), UTC. */
export function localIsoTime(d: Date): string {
  const [y, mo, da, h, mi, s] = parts(d);
  return `${y}-${mo}-${da}T${h}:${mi}:${s}`;
}
/** ISO 8601 with `Z` (event timestamp, completed_at), whole seconds. */
export function zuluTime(d: Date): string {
  return localIsoTime(d) + 'Z';
}
