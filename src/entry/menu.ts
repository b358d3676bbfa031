/**
 * Menu entry points. onOpen runs in AuthMode.NONE before the add-on is used in a document
 * (menu only: no properties, no fetches) and in LIMITED afterwards, so it only builds the menu.
 * The menu actions run authorized (FULL): they may read the user's settings. Every action that can
 * fail runs through fromMenu, the one menu wrapper: a failure is shown in plain words
 * (../app/failure.ts's forSeller), never with a sidebar marker.
 */
import { loadSettings, sidebarError } from '../app/context';
import { forSeller } from '../app/failure';
import { activeSpreadsheet, spreadsheetUi, htmlTemplate } from '../apps-script';
import { applyRowAction, listRowActions, previewRowAction, undoRowAction } from '../app/actions/server';
import { ROW_ACTIONS, type RowActionName } from '../app/actions/plan';
import { exportTabCsv, makeNegotiateTab, makePurchaseOrder } from '../app/buy/server';
import { syncNow } from '../app/lists/server';
import { convertColumnWithToasts, TOAST_TITLE as CONVERT_TITLE } from '../app/formulas/column';

/** The menu's items: caption and the entry point each runs. One list, used by onOpen and tests. */
export const MENU_ITEMS: ReadonlyArray<readonly [string, string] | null> = [
  ['Scan this sheet', 'menuScanSheet'],
  ['Scans (history)', 'menuScanHistory'],
  ['Convert selected column', 'menuConvertColumn'],
  ['Sync lists now', 'menuSyncLists'],
  ['Selected rows: block brand', 'menuBlockBrands'],
  ['Selected rows: block ASIN', 'menuBlockAsins'],
  ['Selected rows: not a match', 'menuNotAMatch'],
  ['Selected rows: confirm match', 'menuConfirmMatch'],
  ['Selected rows: set units per order…', 'menuSetUnits'],
  ['Selected rows: add tags…', 'menuAddTags'],
  ['Selected rows: add note…', 'menuAddNote'],
  ['Undo last row action', 'menuUndoRowAction'],
  ['Negotiate tab from this result tab', 'menuNegotiate'],
  ['Purchase order from selected rows', 'menuPurchaseOrder'],
  ['Export this tab as CSV to Drive', 'menuExportTabCsv'],
  null,
  ['Settings', 'menuSettings'],
  ['Help', 'menuHelp'],
];

/** Simple trigger: adds the add-on's menu. */
export function onOpen(_e?: GoogleAppsScript.Events.SheetsOnOpen): void {
  const menu = spreadsheetUi().createAddonMenu();
  for (const item of MENU_ITEMS) {
    if (item) menu.addItem(item[0], item[1]);
    else menu.addSeparator();
  }
  menu.addToUi();
}

/** Runs once when the add-on is installed (AuthMode.FULL): the menu must appear at once. */
export function onInstall(e?: GoogleAppsScript.Events.AddonOnInstall): void {
  onOpen(e as unknown as GoogleAppsScript.Events.SheetsOnOpen);
}

function showSidebar(view: string): void {
  const template = htmlTemplate('Sidebar');
  template.initialView = view;
  const output = template.evaluate().setTitle('Product Sourcing Scan');
  spreadsheetUi().showSidebar(output);
}

/** A view that needs the service opens Settings instead while no API key is saved (the first use). */
function viewNeedingKey(view: string): string {
  return loadSettings().apiKey ? view : 'settings';
}

/** Extensions > Scan this sheet. */
export function menuScanSheet(): void {
  showSidebar(viewNeedingKey('scan'));
}
/** Extensions > Scans (history). */
export function menuScanHistory(): void {
  showSidebar(viewNeedingKey('history'));
}
/** Extensions > Settings. */
export function menuSettings(): void {
  showSidebar('settings');
}
/** Extensions > Help. */
export function menuHelp(): void {
  showSidebar('help');
}

// ---- the one menu wrapper ------------------------------------------------------------------------

type Ui = GoogleAppsScript.Base.Ui;

/**
 * Runs a menu action; what it throws is shown under `title` in plain words, as an alert (the seller
 * is looking at the menu they just used) or, for an action that reports by toasts, as a toast.
 */
function fromMenu(title: string, body: (ui: Ui) => void, show: 'alert' | 'toast' = 'alert'): void {
  const ui = spreadsheetUi();
  try {
    body(ui);
  } catch (e) {
    const text = forSeller(sidebarError(e).message);
    if (show === 'toast') activeSpreadsheet().toast(text, title, -1);
    else ui.alert(title, text, ui.ButtonSet.OK);
  }
}

/** An action whose result is one message in an alert. */
function alertResult(title: string, run: () => { message: string }): void {
  fromMenu(title, (ui) => ui.alert(title, run().message, ui.ButtonSet.OK));
}

/** Extensions > Convert selected column: progress and problems as toasts. */
export function menuConvertColumn(): void {
  fromMenu(CONVERT_TITLE, () => convertColumnWithToasts(), 'toast');
}

/** Extensions > Sync lists now: the sidebar's sync, with the deletions to confirm asked in a dialog. */
export function menuSyncLists(): void {
  fromMenu('Sync lists', (ui) => {
    let r = syncNow(false);
    const blocked = r.lists.filter((l) => l.state === 'blocked');
    if (blocked.length) {
      const answer = ui.alert('Confirm deletions', blocked.map((l) => l.title + ': ' + l.message).join('\n'), ui.ButtonSet.YES_NO);
      if (answer === ui.Button.YES) r = syncNow(true);
    }
    activeSpreadsheet().toast(
      r.lists
        .filter((l) => l.state !== 'not-set-up')
        .map((l) => l.title + ': ' + l.message)
        .join('\n') || 'No list is set up: open Lists in the sidebar and choose Set up.',
      r.message,
      10,
    );
  });
}

/** A row action from the menu: its question (if any), the preview to confirm, a toast when done. */
function rowActionFromMenu(action: RowActionName): void {
  const def = ROW_ACTIONS[action];
  fromMenu(def.label, (ui) => {
    let arg: string | null = null;
    if (def.ask) {
      const r = ui.prompt(def.label, def.ask, ui.ButtonSet.OK_CANCEL);
      if (r.getSelectedButton() !== ui.Button.OK) return;
      arg = r.getResponseText();
    }
    const p = previewRowAction(action, arg);
    const lines = [p.summary].concat(p.skipped).join('\n');
    if (!p.count) return void ui.alert(def.label, lines, ui.ButtonSet.OK);
    if (ui.alert(def.label, lines + '\n\nGo ahead?', ui.ButtonSet.YES_NO) !== ui.Button.YES) return;
    activeSpreadsheet().toast(applyRowAction(action, arg).message, def.label, 10);
  });
}

export function menuBlockBrands(): void {
  rowActionFromMenu('blockBrands');
}
export function menuBlockAsins(): void {
  rowActionFromMenu('blockAsins');
}
export function menuNotAMatch(): void {
  rowActionFromMenu('markNotMatch');
}
export function menuConfirmMatch(): void {
  rowActionFromMenu('confirmMatch');
}
export function menuSetUnits(): void {
  rowActionFromMenu('setUnitsPerOrder');
}
export function menuAddTags(): void {
  rowActionFromMenu('addTags');
}
export function menuAddNote(): void {
  rowActionFromMenu('addNote');
}
/** Undoes the newest row action of this session not undone yet. */
export function menuUndoRowAction(): void {
  fromMenu('Undo', (ui) => {
    const last = listRowActions().recent[0];
    if (!last) return void ui.alert('Undo', 'No row action of this session is left to undo.', ui.ButtonSet.OK);
    if (ui.alert('Undo', `Undo "${last.summary}"?`, ui.ButtonSet.YES_NO) !== ui.Button.YES) return;
    activeSpreadsheet().toast(undoRowAction(last.id).message, 'Undo', 10);
  });
}

export function menuNegotiate(): void {
  alertResult('Negotiate tab', () => makeNegotiateTab(null));
}
export function menuPurchaseOrder(): void {
  alertResult('Purchase order', () => makePurchaseOrder(null));
}
export function menuExportTabCsv(): void {
  alertResult('Export tab as CSV', () => exportTabCsv(null));
}
