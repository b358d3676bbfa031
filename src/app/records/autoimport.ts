/**
 * What the hourly import trigger remembers per scan (failures in a row, next attempt, why it
 * stopped), in one document property. Its own module so that both the automatic import
 * (import-due.ts) and the sidebar's progress lists read it without importing each other.
 */
import { documentProperties } from '../../apps-script';
import { AUTO_IMPORT_KEY } from '../../store/keys';
import { record, scanMapOf } from '../../store/records';

/** Document property AUTO_IMPORT_KEY: {"<scan id>": {n: failures in a row, a: next attempt ms, s?: why stopped}}. */
export interface AutoImportState {
  /** Failures in a row. */
  n: number;
  /** Clock ms before which the trigger does not try this scan again. */
  a: number;
  /** Set when automatic import stopped: the reason. */
  s?: string;
}
export type AutoImportStates = { [scanId: string]: AutoImportState };

const STATES = record<AutoImportStates>(AUTO_IMPORT_KEY, {
  decode: (v) =>
    scanMapOf(v, (r) => {
      if (typeof r.n !== 'number' || typeof r.a !== 'number') return undefined;
      const state: AutoImportState = { n: r.n, a: r.a };
      if (typeof r.s === 'string') state.s = r.s;
      return state;
    }),
});

export function decodeStates(text: string | null): AutoImportStates {
  return STATES.parse(text) || {};
}

export function readStates(): AutoImportStates {
  return STATES.get(documentProperties()) || {};
}

export function writeStates(states: AutoImportStates): void {
  const props = documentProperties();
  if (Object.keys(states).length) STATES.put(props, states);
  else STATES.remove(props);
}

/**
 * Why automatic import stopped, per scan id, for the sidebar's lists ("automatic import stopped:
 * <reason> — import it from Scans"). Scans still tried automatically are not listed.
 */
export function autoImportNotes(): { [scanId: string]: string } {
  const states = readStates();
  const out: { [scanId: string]: string } = {};
  for (const k of Object.keys(states)) if (states[k].s) out[k] = states[k].s!;
  return out;
}
