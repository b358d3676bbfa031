/**
 * What to buy (issue 24): the Negotiate tab, the purchase order, a tab as a CSV file. Types only;
 * see src/app/protocol.ts for the rules every server function follows.
 */

export interface NegotiateRequest {
  /** The result tab (default: the active tab). */
  sheetName?: string | null;
  /** Largest discount to ask for, percent (default: the scan's option, else 20). */
  maxDiscount?: number | string | null;
}

export interface PurchaseOrderRequest {
  /** A result tab or a Negotiate tab (default: the active tab). */
  sheetName?: string | null;
  /** Sheet rows, e.g. "2-40" or "2-5, 9"; default: the selected rows (a result tab) or every row with an agreed cost (a Negotiate tab). */
  rows?: string | null;
  /** Months of cover (default: the scan's option, else 2). */
  months?: number | string | null;
  /**
   * Cash you have for this order, and the days it should sell through within: over them, the PO warns.
   * No days: the default cover (90 days), and lines are cut to the whole case packs that sell through within it.
   */
  cash?: number | string | null;
  days?: number | string | null;
}

export interface BuyTabResult {
  sheetName: string;
  /** Lines written (items). */
  lines: number;
  message: string;
}

export interface TabFileResult {
  fileName: string;
  url: string;
  message: string;
}

export interface BuyServerFunctions {
  makeNegotiateTab(request?: NegotiateRequest | null): BuyTabResult;
  makePurchaseOrder(request?: PurchaseOrderRequest | null): BuyTabResult;
  exportTabCsv(sheetName?: string | null): TabFileResult;
}
