/**
 * The sidebar's contract for row actions (re-exported by ../protocol.ts). Plain data only.
 */
export type RowActionId = 'blockBrands' | 'blockAsins' | 'markNotMatch' | 'confirmMatch' | 'setUnitsPerOrder' | 'addTags' | 'addNote';

/** What an action is about to do on the selected rows (or did). */
export interface RowActionPreview {
  action: RowActionId;
  /** The list it writes (ListId). */
  list: string;
  /** "Block 3 brands (US): Acme, ..." or "Nothing to do". */
  summary: string;
  /** "2 of the 5 selected rows have no brand: skipped", ... */
  skipped: string[];
  /** Entries that change. */
  count: number;
  selected: number;
  sheetName: string;
  /** The summary and the skipped rows as sentences (what the menu and the sidebar show). */
  message: string;
  /**
   * Confirm match and Not a match: the first selected rows with their picture beside the supplier's
   * title, so a wrong match shows at a glance (issue 36). Absent for other actions or a tab without pictures.
   */
  pictures?: RowPicture[];
}

/** One selected row as the sidebar shows it beside a match action. */
export interface RowPicture {
  sheetRow: number;
  /** The supplier's own description of the product ('' when the scan had none). */
  supplierTitle: string;
  /** The marketplace listing's title. */
  title: string;
  /** The checked https address of its picture, or null (none, or the cell was edited into something else). */
  picture: string | null;
}

export interface RowActionResult extends RowActionPreview {
  /** The action's id for undoRowAction; null when nothing changed or it is too large to keep. */
  id: string | null;
  /** Rows of result tabs now marked (blocked / not a match). */
  marked: number;
}

/** One of the last actions of this session (this user, this spreadsheet), newest first. */
export interface RowActionView {
  id: string;
  /** ISO time. */
  at: string;
  action: string;
  summary: string;
  undone: boolean;
}

/** The Selected rows section: its buttons (labels from the server) and the session's last actions. */
export interface RowActionsView {
  actions: Array<{ id: RowActionId; label: string }>;
  /** Placeholder of the box for units, tags or note. */
  hint: string;
  /** The session's last actions not undone yet, newest first. */
  recent: RowActionView[];
}

export interface ActionsServerFunctions {
  /**
   * What an action would do on the rows selected in a result tab ("Block 3 brands (US): Acme, …";
   * rows it must skip, and why). Changes nothing. Design: src/app/actions/README.md.
   * arg: the units, the tag names (text with commas, or a list) or the note text; null for the others.
   */
  previewRowAction(action: RowActionId, arg?: string | string[] | number | null): RowActionPreview;
  /**
   * Writes the entries into the list's table (setting up missing tables) and sends exactly them to
   * the service, one request per area (notes: one per note); moves the sync's base and refreshes the
   * result tabs' list columns. The result's id undoes it.
   */
  applyRowAction(action: RowActionId, arg?: string | string[] | number | null): RowActionResult;
  /** Reverses an action of this session (sheet rows, service entries, base) for the entries still as it left them. */
  undoRowAction(id: string): RowActionResult;
  /** The actions' labels and this session's recent actions (kept in the user cache for 6 hours). */
  listRowActions(): RowActionsView;
}
