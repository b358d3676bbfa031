/**
 * Number words, one home for the add-on and the sidebar. Counts are written with en-US digit
 * grouping ("12,345") whatever the seller's locale, so messages read the same in Apps Script's V8
 * and in Node (tests); both ship full ICU for 'en-US'.
 */
export function commas(n: number): string {
  return n.toLocaleString('en-US');
}

/**
 * A percentage with a fixed number of decimals and no digit grouping: "12.5%" (`percentFixed(12.46, 1)`).
 * The sidebar's progress bar uses it as its CSS width, so it stays a plain number and a sign.
 */
export function percentFixed(n: number, decimals: number): string {
  return n.toFixed(decimals) + '%';
}
