/**
 * Number words, one home for the add-on and the sidebar. Counts are written with en-US digit
 * grouping ("12,345") whatever the seller's locale, so messages read the same in Apps Script's V8
 * and in Node (tests); both ship full ICU for 'en-US'.
 */
export function commas(n: number): string {
  return n.toLocaleString('en-US');
}

/** A count (of cells, rows, characters) in words: rounded to a whole number, in en-US digit grouping ("12,346" for 12,345.6). */
export function count(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/**
 * A figure in messages: thousands separators and at most `decimals` decimals ("1,234.5"), never in
 * exponent form; '' for a number that is not finite.
 */
export function figureText(n: number, decimals = 2): string {
  if (typeof n !== 'number' || !isFinite(n)) return '';
  const fixed = Math.abs(n).toFixed(Math.max(0, Math.min(decimals, 20)));
  // (toFixed writes an exponent from 1e21 on: such a figure is given in words of its size)
  if (/e/i.test(fixed)) return (n < 0 ? 'minus ' : '') + 'more than 10^21';
  const [whole, frac] = fixed.split('.');
  const f = frac ? frac.replace(/0+$/, '') : '';
  return (n < 0 ? '-' : '') + whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (f ? '.' + f : '');
}

/** Money as the marketplace's number format shows it ("$1,234.56", "1,234.56 €", "¥1,235"). */
export function moneyText(cents: number, moneyFormat: string): string {
  const decimals = /0\.0+/.test(moneyFormat) ? (/0\.(0+)/.exec(moneyFormat) as RegExpExecArray)[1].length : 0;
  const amount = Math.abs(cents) / 100;
  const fixed = amount.toFixed(decimals);
  const [whole, frac] = fixed.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (frac ? '.' + frac : '');
  const prefix = (/^"([^"]*)"/.exec(moneyFormat) || ['', ''])[1];
  const suffix = (/"([^"]*)"$/.exec(moneyFormat) || ['', ''])[1];
  return (cents < 0 ? '-' : '') + (moneyFormat.startsWith('"') ? prefix + grouped : grouped + suffix);
}

/** Basis points as a percent to two decimals at most ("84.2%" for 8,420 bps). */
export function bpsPercent(bps: number): string {
  return `${Math.round(bps) / 100}%`;
}

/** A size in bytes as mebibytes to one decimal, the way the upload limit is stated ("12.5 MB"). */
export function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
