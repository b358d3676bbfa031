/**
 * The history columns of a result tab (a scan that pulled historical data) and their trend charts
 * (issue 36). The figures stay in their columns: rank and price at 180, 90, 60 and 30 days; each
 * trend is an in-cell line chart, =SPARKLINE over those cells of its own row and today's Rank or
 * Buy Box, oldest to newest (Google's SPARKLINE page, support.google.com/docs/answer/3093289: data
 * is "the range or array"; "empty" "ignore" skips a figure the service does not know).
 *
 * Colour by direction, picked from the figures at import (a checked literal of this module): green
 * when the trend is good for a seller (rank falling: selling more; price rising), red when bad,
 * grey when flat. The formula is the add-on's own: cell references and these literals only.
 *
 * History is read in both shapes the service may answer: flat members (`bsr_90_days`) and the
 * vendor client's nested `historical.bsr.d90` (service-silent-parts.md). -1 means unknown: blank.
 */
import { numberIn, pick, type ColumnEntry, type Product } from './columns';

function history(flat: string, nested: string, days: number): (p: Product) => unknown {
  return (p) => {
    let v = p[flat + '_' + days + '_days'];
    if (v === undefined || v === null) {
      const h = p.historical;
      const group = h !== null && typeof h === 'object' ? (h as Record<string, unknown>)[nested] : undefined;
      v = group !== null && typeof group === 'object' ? (group as Record<string, unknown>)['d' + days] : undefined;
    }
    return typeof v === 'number' && isFinite(v) && v >= 0 ? v : '';
  };
}

/** Oldest to newest: what a trend chart reads left to right. */
const DAYS = [180, 90, 60, 30] as const;

const GREEN = '#188038';
const RED = '#d93025';
const GREY = '#80868b';

interface Trend {
  /** The layout keys of its figures, oldest to newest; the last is today's. */
  keys: readonly string[];
  /** Which way is good for a seller. */
  better: 'lower' | 'higher';
}

const TRENDS: Readonly<Record<string, Trend>> = {
  rank_trend: { keys: [...DAYS.map((d) => 'bsr_' + d), 'rank'], better: 'lower' },
  price_trend: { keys: [...DAYS.map((d) => 'price_' + d), 'buybox_price'], better: 'higher' },
};

/** The reader of each figure a trend reads (the same as its column's). */
const FIGURE: Readonly<Record<string, (p: Product) => unknown>> = {
  ...Object.fromEntries(DAYS.map((d) => ['bsr_' + d, history('bsr', 'bsr', d)])),
  ...Object.fromEntries(DAYS.map((d) => ['price_' + d, history('price', 'price', d)])),
  rank: pick('rank'),
  buybox_price: pick('buybox_price'),
};

/** The chart's colour for a product: its oldest known figure against its newest; '' with fewer than two. */
function trendColour(trend: Trend): (p: Product) => string {
  return (p) => {
    const points = trend.keys.map((k) => numberIn(FIGURE[k](p))).filter((v): v is number => v !== null);
    if (points.length < 2) return '';
    const change = points[points.length - 1] - points[0];
    if (change === 0) return GREY;
    return change < 0 === (trend.better === 'lower') ? GREEN : RED;
  };
}

const TREND_NOTE = ' at 180, 90, 60 and 30 days and today, oldest to newest (a figure the service does not know is skipped). Green: ';

export const HISTORY_COLUMNS: readonly ColumnEntry[] = [
  {
    key: 'rank_trend',
    header: 'Rank trend',
    width: 100,
    kind: 'sparkline',
    get: trendColour(TRENDS.rank_trend),
    note:
      'Average Best Sellers Rank' + TREND_NOTE + 'the rank fell (it sells more); red: it rose; grey: flat. A lower line is a better rank.',
  },
  ...DAYS.map((d) => ({ key: 'bsr_' + d, header: 'Avg rank ' + d + 'd', width: 95, kind: 'int' as const, get: FIGURE['bsr_' + d] })),
  {
    key: 'price_trend',
    header: 'Price trend',
    width: 100,
    kind: 'sparkline',
    get: trendColour(TRENDS.price_trend),
    note: 'Average price' + TREND_NOTE + 'the price rose; red: it fell; grey: flat. Today is the Buy Box.',
  },
  ...DAYS.map((d) => ({ key: 'price_' + d, header: 'Avg price ' + d + 'd', width: 95, kind: 'money' as const, get: FIGURE['price_' + d] })),
  {
    key: 'instock_90',
    header: 'Amazon in stock 90d',
    width: 110,
    kind: 'percent',
    get: history('instock_rate', 'amazon_in_stock_rate', 90),
  },
  { key: 'drops_30', header: 'Rank drops 30d', width: 95, kind: 'int', get: history('sales_rank_drops', 'sales_rank_drops', 30) },
  { key: 'drops_90', header: 'Rank drops 90d', width: 95, kind: 'int', get: history('sales_rank_drops', 'sales_rank_drops', 90) },
];

const COLOURS = new Set([GREEN, RED, GREY]);

/**
 * The trend chart of sheet row `row`: =SPARKLINE over the cells of its figures present in the tab
 * (`letters`: column letter by layout key), oldest to newest. '' when fewer than two are in the tab
 * or the colour is not one of ours (nothing else enters the formula).
 */
export function trendFormula(key: string, colour: string, letters: ReadonlyMap<string, string>, row: number): string {
  const trend = TRENDS[key];
  if (!trend || !COLOURS.has(colour) || !(Number.isInteger(row) && row >= 1)) return '';
  const cells = trend.keys.filter((k) => letters.has(k)).map((k) => letters.get(k)! + row);
  if (cells.length < 2) return '';
  return `=SPARKLINE({${cells.join(',')}},{"charttype","line";"color","${colour}";"empty","ignore";"nan","ignore";"linewidth",2})`;
}
