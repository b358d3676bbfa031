/**
 * What Range.copyTo and Range.moveTo carry from one cell to another: its content (value or formula),
 * its format, and (pasting normally) its note and validation rule. Pure functions of the model.
 */
import type { Cell } from './model';

export const CopyPasteType = {
  PASTE_NORMAL: 'PASTE_NORMAL',
  PASTE_NO_BORDERS: 'PASTE_NO_BORDERS',
  PASTE_FORMAT: 'PASTE_FORMAT',
  PASTE_FORMULA: 'PASTE_FORMULA',
  PASTE_DATA_VALIDATION: 'PASTE_DATA_VALIDATION',
  PASTE_VALUES: 'PASTE_VALUES',
  PASTE_CONDITIONAL_FORMATTING: 'PASTE_CONDITIONAL_FORMATTING',
  PASTE_COLUMN_WIDTHS: 'PASTE_COLUMN_WIDTHS',
} as const;

const FORMAT_KEYS = ['fmt', 'bg', 'bold', 'color', 'halign', 'wrap'] as const;

/** A copy of a cell's own data (not the custom-function bookkeeping, which is rebuilt where it lands). */
export function cloneCell(c: Cell | undefined): Cell | undefined {
  if (!c) return undefined;
  const out: Cell = {};
  for (const k of ['v', 'f', 'q', 'err', 'note', 'dv', ...FORMAT_KEYS] as const) if (c[k] !== undefined) (out as any)[k] = c[k];
  if (c.links) out.links = c.links.map((l) => ({ ...l }));
  return out;
}

/** Writes the format of `from` over `to` (a missing format resets it). */
export function copyFormat(to: Cell, from: Cell | undefined): void {
  for (const k of FORMAT_KEYS) (to as any)[k] = from?.[k];
}

/** Writes the value of `from` over `to`, as stored (no re-typing); formulas are written by the caller. */
export function copyValue(to: Cell, from: Cell | undefined): void {
  to.v = from?.f ? undefined : from?.v;
  to.q = from?.q;
  to.links = from?.links?.map((l) => ({ ...l }));
  to.img = from?.img ? { ...from.img } : undefined;
  to.f = undefined;
  to.err = undefined;
  to.cf = undefined;
  to.spilledFrom = undefined;
}
