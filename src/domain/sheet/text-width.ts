/**
 * How wide a text shows in a cell, in pixels, at Google Sheets' default font (Arial 10 pt, 13⅓ px):
 * the one estimate the column layouts size their columns with (issue 32: "Net reve…", "$191,976.…"
 * were cut at fixed widths). Advance widths are Arial's (units of 1/2048 em); bold is taken as 8 %
 * wider, a character not in the table as the widest letter's. Pure.
 */
const EM = 2048;
const FONT_PX = 40 / 3;
const ADVANCE: Record<string, number> = {};
function set(chars: string, w: number): void {
  for (const c of chars) ADVANCE[c] = w;
}
set('0123456789$€£¥#?_', 1139);
set('abdeghnopqu', 1139);
set('cksvxyzJL', 1024);
set("fjt/ .,:;!|[]'", 569);
set('il', 455);
set('r()-*', 682);
set('mM', 1706);
set('w', 1479);
set('%', 1821);
set('ABEKPSVXY', 1366);
set('FTZ', 1251);
set('CDHNRUw', 1479);
set('GOQ', 1593);
set('W', 1933);
set('I', 569);
set('×÷', 1196);
set('–', 1139);
set('’…', 2048);

/** Pixels the text takes in the default font (no padding). */
export function textWidth(text: string, bold = false): number {
  let units = 0;
  for (const c of text) units += ADVANCE[c] ?? 1933;
  return (units / EM) * FONT_PX * (bold ? 1.08 : 1);
}

/** A cell's padding, both sides, and the filter button a header cell of a filtered tab shows. */
export const CELL_PADDING_PX = 8;
export const FILTER_BUTTON_PX = 22;
