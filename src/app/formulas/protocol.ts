/**
 * The sidebar's contract with the server functions of "Convert selected column": types only (nothing runs, nothing is
 * bundled). See src/app/protocol.ts for the rules every server function follows.
 */

export interface ColumnConversionProgress {
  done: boolean;
  rowsDone: number;
  totalRows: number;
  /** Where the values go, A1 notation. */
  targetA1: string;
  message: string;
  /** The conversion, e.g. 'ASIN_FROM_UPC', 'IDENTIFIERS_FROM_ASIN'. */
  conversion: string;
  /** The column read (data rows, header excluded), A1 notation with the sheet name. */
  sourceA1: string;
  marketplace: string;
}

/** Optional choices for "Convert selected column"; with none, an unfinished conversion continues, else the selection is converted. */
export interface ColumnConversionRequest {
  /** One of ASIN_FROM_UPC/EAN/ISBN, UPC/EAN/ISBN/GTIN/JAN_FROM_ASIN, IDENTIFIERS_FROM_ASIN; default: chosen from the header and values. */
  conversion?: string;
  /** Marketplace code; default: the user's default marketplace. */
  marketplace?: string;
  /** Several ASINs for one input: 'first' (default) or 'all' (joined with ", "). */
  matches?: 'first' | 'all';
  /** Start over with the current selection even when an unfinished conversion exists. */
  restart?: boolean;
}
