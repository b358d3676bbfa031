/**
 * The shape of the add-on's per-scan document properties (RUNNING_KEY, AUTO_IMPORT_KEY): one JSON
 * object keyed by scan id. Read leniently: anything unreadable is dropped, never thrown, so a damaged
 * property costs at most its own entries.
 */

/** `{"<scan id>": entry}` with each entry kept when `entry(value)` accepts it. */
export function decodeScanMap<T>(text: string | null, entry: (value: Record<string, unknown>) => T | undefined): { [scanId: string]: T } {
  const out: { [scanId: string]: T } = {};
  if (!text) return out;
  try {
    const v = JSON.parse(text);
    if (!v || typeof v !== 'object' || Array.isArray(v)) return out;
    for (const k of Object.keys(v)) {
      const r = v[k];
      const e = /^\d+$/.test(k) && r && typeof r === 'object' ? entry(r) : undefined;
      if (e !== undefined) out[k] = e;
    }
  } catch (_e) {
    // unreadable: nothing recorded
  }
  return out;
}
