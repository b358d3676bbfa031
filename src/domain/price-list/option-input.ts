/**
 * What the seller types into an option field (a percent, a whole number) read as a number, and the
 * problem an unreadable one becomes. Shared by the upload options (attributes.ts) and the buy
 * options (decide.ts), which is why it sits below both. Pure.
 */
import { percentToBps } from '../../../contract/units';

/** An option the user must correct, named by its field in ScanOptionsInput. */
export interface OptionProblem {
  field: string;
  message: string;
}

/** Percent input to basis points; null when unreadable. "5%" -> 500, 12.5 -> 1250. */
export function percentInputToBps(v: number | string): number | null {
  if (typeof v === 'number') return percentToBps(v);
  const s = v.trim().replace(/\s/g, '').replace(/%$/, '').replace(',', '.');
  if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(s)) return null;
  return percentToBps(Number(s));
}

/** Whole number input (>= min); null when not one. */
export function wholeNumberInput(v: number | string, min: number): number | null {
  const n = typeof v === 'number' ? v : /^\s*\d+\s*$/.test(v) ? Number(v) : NaN;
  return Number.isInteger(n) && n >= min && n <= 1_000_000 ? n : null;
}
