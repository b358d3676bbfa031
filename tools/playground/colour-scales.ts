/**
 * The backgrounds a sheet's conditional formats give its cells, as Sheets paints them: a colour
 * scale gives each number of its ranges the colour between the scale's points (min, optional mid,
 * max) in proportion to where it lies (text and empty cells get none); a rule on a number or a
 * text (the result tab's profit, ROI and verdict colours) gives its background to the cells it
 * matches. Later rules do not repaint a cell an earlier rule painted (Sheets applies the first
 * rule that matches).
 */
import type { SheetModel } from '../../emulator/gas/spreadsheet/model';
import type { GradientData, GradientPoint } from '../../emulator/gas/spreadsheet/rules';

interface RuleShape {
  d?: {
    gradient?: GradientData;
    criteria?: string | null;
    values?: unknown[];
    background?: string | null;
    ranges: Array<{ _r: number; _c: number; _nr: number; _nc: number }>;
  };
}

/** The boolean criteria drawn (SpreadsheetApp.BooleanCriteria names), each a test of a cell's value. */
const CRITERIA: Record<string, (v: unknown, a: unknown[]) => boolean> = {
  NUMBER_GREATER_THAN: (v, a) => typeof v === 'number' && v > Number(a[0]),
  NUMBER_GREATER_THAN_OR_EQUAL_TO: (v, a) => typeof v === 'number' && v >= Number(a[0]),
  NUMBER_LESS_THAN: (v, a) => typeof v === 'number' && v < Number(a[0]),
  NUMBER_LESS_THAN_OR_EQUAL_TO: (v, a) => typeof v === 'number' && v <= Number(a[0]),
  NUMBER_EQUAL_TO: (v, a) => typeof v === 'number' && v === Number(a[0]),
  NUMBER_BETWEEN: (v, a) => typeof v === 'number' && v >= Number(a[0]) && v <= Number(a[1]),
  TEXT_EQUAL_TO: (v, a) => typeof v === 'string' && v === String(a[0]),
  TEXT_CONTAINS: (v, a) => typeof v === 'string' && v.includes(String(a[0])),
  TEXT_STARTS_WITH: (v, a) => typeof v === 'string' && v.startsWith(String(a[0])),
  CELL_NOT_EMPTY: (v) => v !== undefined && v !== null && v !== '',
};

/** The cells a rule on a number or a text paints with its background. */
function paintMatches(sh: SheetModel, d: NonNullable<RuleShape['d']>, out: Map<string, string>): void {
  const test = d.criteria ? CRITERIA[d.criteria] : undefined;
  if (!test || !d.background) return;
  for (const r of d.ranges)
    for (let i = 0; i < r._nr; i++)
      for (let j = 0; j < r._nc; j++) {
        const key = `${r._r + i},${r._c + j}`;
        if (!out.has(key) && test(sh.cell(r._r + i, r._c + j)?.v, d.values ?? [])) out.set(key, d.background);
      }
}

/** Background per "row,col" (1-based) from the sheet's colour scales. */
export function colourScaleBackgrounds(sh: SheetModel): Map<string, string> {
  const out = new Map<string, string>();
  for (const rule of sh.cfRules as RuleShape[]) {
    const g = rule.d?.gradient;
    if (rule.d && !g) paintMatches(sh, rule.d, out);
    if (!g?.min || !g.max) continue;
    const cells: Array<[string, number]> = [];
    for (const r of rule.d!.ranges)
      for (let i = 0; i < r._nr; i++)
        for (let j = 0; j < r._nc; j++) {
          const v = sh.cell(r._r + i, r._c + j)?.v;
          if (typeof v === 'number') cells.push([`${r._r + i},${r._c + j}`, v]);
        }
    if (!cells.length) continue;
    const sorted = cells.map(([, v]) => v).sort((a, b) => a - b);
    const stops = [g.min, g.mid, g.max]
      .filter((p): p is GradientPoint => !!p)
      .map((p) => ({ at: positionOf(p, sorted), rgb: rgbOf(p.color) }));
    for (const [key, v] of cells) if (!out.has(key)) out.set(key, colourAt(stops, v));
  }
  return out;
}

function positionOf(p: GradientPoint, sorted: number[]): number {
  const lo = sorted[0];
  const hi = sorted[sorted.length - 1];
  const n = Number(p.value);
  switch (p.type) {
    case 'NUMBER':
      return n;
    case 'PERCENT':
      return lo + ((hi - lo) * n) / 100;
    case 'PERCENTILE': {
      const k = ((sorted.length - 1) * n) / 100;
      const f = Math.floor(k);
      return sorted[f] + (sorted[Math.min(f + 1, sorted.length - 1)] - sorted[f]) * (k - f);
    }
    case 'MAX':
      return hi;
    default:
      return lo;
  }
}

function rgbOf(hex: string): [number, number, number] {
  const h = /^#?([0-9a-f]{6})$/i.exec(hex)?.[1] ?? 'ffffff';
  return [0, 2, 4].map((i) => Number.parseInt(h.slice(i, i + 2), 16)) as [number, number, number];
}

function colourAt(stops: Array<{ at: number; rgb: [number, number, number] }>, v: number): string {
  let rgb = stops[0].rgb;
  if (v >= stops[stops.length - 1].at) rgb = stops[stops.length - 1].rgb;
  else
    for (let i = 0; i + 1 < stops.length; i++) {
      const a = stops[i];
      const b = stops[i + 1];
      if (v < a.at || v > b.at) continue;
      const t = b.at === a.at ? 1 : (v - a.at) / (b.at - a.at);
      rgb = a.rgb.map((x, k) => Math.round(x + (b.rgb[k] - x) * t)) as [number, number, number];
      break;
    }
  return `#${rgb.map((x) => x.toString(16).padStart(2, '0')).join('')}`;
}
