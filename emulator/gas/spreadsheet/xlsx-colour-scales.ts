/**
 * Colour-scale conditional formats in an .xlsx file (Excel's `colorScale` rule: a cfvo and a colour
 * per point), written and read for xlsx.ts. Sheets downloads its colour scales as this rule and
 * uploads them back; InterpolationType maps to the cfvo types one for one.
 */
import type ExcelJS from 'exceljs';
import type { GradientData, GradientPoint } from './rules';

const TO_CFVO: Record<string, string> = { MIN: 'min', MAX: 'max', NUMBER: 'num', PERCENT: 'percent', PERCENTILE: 'percentile' };
const FROM_CFVO: Record<string, string> = Object.fromEntries(Object.entries(TO_CFVO).map(([k, v]) => [v, k]));

/** Excel's rule for a colour scale. */
export function colourScaleForXlsx(g: GradientData): ExcelJS.ConditionalFormattingRule {
  const points = [g.min, g.mid, g.max].filter((p): p is GradientPoint => !!p);
  return {
    type: 'colorScale',
    priority: 1,
    cfvo: points.map((p) => (p.value === '' ? { type: TO_CFVO[p.type] } : { type: TO_CFVO[p.type], value: Number(p.value) })),
    color: points.map((p) => ({ argb: 'FF' + p.color.replace('#', '').toUpperCase() })),
  } as ExcelJS.ConditionalFormattingRule;
}

/** The colour scale of an Excel `colorScale` rule, or null when it is none (or one Sheets would not hold). */
export function colourScaleFromXlsx(x: ExcelJS.ConditionalFormattingRule): GradientData | null {
  const r = x as unknown as { type: string; cfvo?: Array<{ type: string; value?: unknown }>; color?: Array<{ argb?: string }> };
  if (r.type !== 'colorScale' || !r.cfvo || !r.color || r.cfvo.length < 2 || r.cfvo.length > 3) return null;
  const points: GradientPoint[] = [];
  for (let i = 0; i < r.cfvo.length; i++) {
    const type = FROM_CFVO[r.cfvo[i].type];
    const argb = r.color[i]?.argb;
    if (!type || !argb || !/^[0-9a-fA-F]{8}$/.test(argb)) return null;
    points.push({ color: '#' + argb.slice(2).toLowerCase(), type, value: r.cfvo[i].value === undefined ? '' : String(r.cfvo[i].value) });
  }
  return { min: points[0], mid: points.length === 3 ? points[1] : null, max: points[points.length - 1] };
}
