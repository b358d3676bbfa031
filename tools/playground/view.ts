/**
 * What the page gets of one sheet (server.ts sheetView, client.ts draws it): shared by the server
 * and the browser script, types only.
 */

/** Per cell, what differs from a plain value: formula, the text an edit starts from, number format, note, error, look. */
export interface CellMeta {
  input?: string;
  formula?: string;
  format?: string;
  note?: string;
  error?: string;
  bold?: boolean;
  bg?: string;
  color?: string;
  align?: string;
  /** What is drawn instead of the text (cell-pictures.ts). */
  picture?: CellPicture;
  /** Text that runs on over the empty cell to its right, as Sheets draws it, instead of being cut. */
  overflow?: boolean;
}

/** The page's view of one sheet: what the grid shows, and per cell what differs from a plain value. */
export interface SheetView {
  name: string;
  rows: number;
  cols: number;
  /** Display values of rows 1..lastRow, columns 1..lastColumn. */
  display: string[][];
  /** Per "row,col" (1-based). */
  cells: Record<string, CellMeta>;
  widths: Record<string, number>;
  /** Row heights in pixels, by row number, of the rows given one (setRowHeight: the result tab's picture rows). */
  heights: Record<string, number>;
  frozenRows: number;
}

/** A picture drawn in a cell (IMAGE, an in-cell image): src null when the page does not load its link. */
export interface Picture {
  kind: 'image';
  src: string | null;
  alt: string;
}

/** A SPARKLINE: its chart type and the numbers of its data, in order. */
export interface Sparkline {
  kind: 'sparkline';
  chart: 'line' | 'bar' | 'column';
  values: number[];
  color?: string;
  max?: number;
  /** A line chart's "linewidth" (in pixels, as Sheets draws it). */
  lineWidth?: number;
}

export type CellPicture = Picture | Sparkline;
