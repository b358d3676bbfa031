/**
 * Range.insertCells / deleteCells: the cells of a box and those past it in one direction move, the
 * rest of the sheet stays (Sheets' "Insert cells, shift down/right" and "Delete cells, shift up/left").
 * Pure functions of the sheet model; formulas elsewhere are not rewritten (chosen, see README).
 */
import type { Cell, SheetModel } from './model';
import type { Box } from './navigation';

/** Moves cells of rows (dimension ROWS: along each column of the box) or of columns (COLUMNS). */
export function shiftCells(m: SheetModel, b: Box, dimension: 'ROWS' | 'COLUMNS', insert: boolean): void {
  if (dimension === 'ROWS') {
    const n = b.r2 - b.r1 + 1;
    const end = Math.max(m.rows.length, b.r2) + (insert ? n : 0);
    for (let c = b.c1; c <= b.c2; c++) {
      const col: Array<Cell | undefined> = [];
      for (let r = b.r1; r <= end; r++) col.push(m.rows[r - 1]?.[c - 1]);
      const moved = insert ? [...new Array(n).fill(undefined), ...col] : [...col.slice(n), ...new Array(n).fill(undefined)];
      for (let i = 0; i < col.length; i++) put(m, b.r1 + i, c, moved[i]);
    }
    return;
  }
  const n = b.c2 - b.c1 + 1;
  for (let r = b.r1; r <= b.r2; r++) {
    const row = m.rows[r - 1];
    if (!row) continue;
    while (row.length < b.c1 - 1) row.push(undefined);
    if (insert) row.splice(b.c1 - 1, 0, ...new Array(n).fill(undefined));
    else row.splice(b.c1 - 1, n);
  }
}

function put(m: SheetModel, r: number, c: number, cell: Cell | undefined): void {
  if (!cell && !m.rows[r - 1]) return;
  if (!m.rows[r - 1]) m.rows[r - 1] = [];
  m.rows[r - 1][c - 1] = cell;
}

/** How far data would be pushed past the sheet's edge by an insert: the rows or columns to add. */
export function overflow(m: SheetModel, b: Box, dimension: 'ROWS' | 'COLUMNS'): number {
  let last = 0;
  if (dimension === 'ROWS') {
    for (let r = m.rows.length; r >= b.r1 && !last; r--) for (let c = b.c1; c <= b.c2; c++) if (m.rows[r - 1]?.[c - 1]) last = r;
    return Math.max(0, last + (b.r2 - b.r1 + 1) - m.maxRows);
  }
  for (let r = b.r1; r <= b.r2; r++) {
    const row = m.rows[r - 1] ?? [];
    for (let c = row.length; c > last && c >= b.c1; c--) if (row[c - 1]) last = c;
  }
  return Math.max(0, last + (b.c2 - b.c1 + 1) - m.maxCols);
}
