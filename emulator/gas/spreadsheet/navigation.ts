/**
 * Moving over data as Ctrl+arrow and Ctrl+A do in the editor: Range.getNextDataCell(direction) and
 * Range.getDataRegion([dimension]). Pure functions of the sheet model.
 */
import { type SheetModel, isEmptyCell } from './model';

export const Direction = { UP: 'UP', DOWN: 'DOWN', PREVIOUS: 'PREVIOUS', NEXT: 'NEXT' } as const;
export const Dimension = { COLUMNS: 'COLUMNS', ROWS: 'ROWS' } as const;

export interface Box {
  r1: number;
  c1: number;
  r2: number;
  c2: number;
}

function has(m: SheetModel, r: number, c: number): boolean {
  return !isEmptyCell(m.cell(r, c));
}

/**
 * Google: "the next cell in the given direction that is the edge of a contiguous range of cells
 * with data in them or the cell at the edge of the spreadsheet in that direction" (Ctrl+arrow).
 * From a cell with data whose neighbour has data, the end of that block; otherwise the next cell
 * with data, or the sheet's edge.
 */
export function nextDataCell(m: SheetModel, r: number, c: number, direction: string): { r: number; c: number } {
  const [dr, dc] = direction === 'UP' ? [-1, 0] : direction === 'DOWN' ? [1, 0] : direction === 'PREVIOUS' ? [0, -1] : [0, 1];
  const inside = (rr: number, cc: number) => rr >= 1 && cc >= 1 && rr <= m.maxRows && cc <= m.maxCols;
  if (!inside(r + dr, c + dc)) return { r, c };
  let [rr, cc] = [r, c];
  if (has(m, r, c) && has(m, r + dr, c + dc)) {
    while (inside(rr + dr, cc + dc) && has(m, rr + dr, cc + dc)) [rr, cc] = [rr + dr, cc + dc];
    return { r: rr, c: cc };
  }
  [rr, cc] = [r + dr, c + dc];
  while (inside(rr + dr, cc + dc) && !has(m, rr, cc)) [rr, cc] = [rr + dr, cc + dc];
  return { r: rr, c: cc };
}

/**
 * Google: "expanded in the four cardinal Directions to cover all adjacent cells with data in them
 * ... not including those along diagonals" (Ctrl+A). The box grows while the row or column just
 * outside one of its sides, across its width or height, holds data. ROWS grows it only up and
 * down, COLUMNS only left and right.
 */
export function dataRegion(m: SheetModel, box: Box, dimension?: string): Box {
  const b = { ...box };
  const rows = dimension !== 'COLUMNS';
  const cols = dimension !== 'ROWS';
  const rowHas = (r: number) => {
    for (let c = b.c1; c <= b.c2; c++) if (has(m, r, c)) return true;
    return false;
  };
  const colHas = (c: number) => {
    for (let r = b.r1; r <= b.r2; r++) if (has(m, r, c)) return true;
    return false;
  };
  for (let grown = true; grown; ) {
    grown = false;
    if (rows && b.r1 > 1 && rowHas(b.r1 - 1)) [b.r1, grown] = [b.r1 - 1, true];
    if (rows && b.r2 < m.maxRows && rowHas(b.r2 + 1)) [b.r2, grown] = [b.r2 + 1, true];
    if (cols && b.c1 > 1 && colHas(b.c1 - 1)) [b.c1, grown] = [b.c1 - 1, true];
    if (cols && b.c2 < m.maxCols && colHas(b.c2 + 1)) [b.c2, grown] = [b.c2 + 1, true];
  }
  return b;
}
