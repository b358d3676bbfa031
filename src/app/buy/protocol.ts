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
  /**
   * From a result tab (default the active one), with no service call: the items short of the target
   * ROI today that reach it at a discount of at most `maxDiscount` % (default the scan's option, else
   * 20), into a new "<tab> – Negotiate" tab with an Agreed cost column for the seller to type.
   */
  makeNegotiateTab(request?: NegotiateRequest | null): BuyTabResult;
  /**
   * A new "<tab> – PO" tab from the selected (or given) rows of a result tab, or from a Negotiate tab's
   * rows with an agreed cost; no service call. Quantities are rounded UP to whole case packs and capped
   * by stock; the money columns and totals are sheet formulas from cell references only, so an edited
   * quantity recomputes without the add-on. "Over: …" warns when cash or days pass what the seller set.
   */
  makePurchaseOrder(request?: PurchaseOrderRequest | null): BuyTabResult;
  /**
   * The tab as shown (default the active one) as a CSV file in Drive (a Negotiate tab: only the
   * supplier's columns); a field starting with = + - @, tab or CR gets a leading apostrophe.
   */
  exportTabCsv(sheetName?: string | null): TabFileResult;
}
