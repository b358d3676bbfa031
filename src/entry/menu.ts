/**
 * Menu entry points. onOpen runs in AuthMode.NONE before the add-on is used in a document
 * (menu only: no properties, no fetches) and in LIMITED afterwards, so it only builds the menu.
 * The menu actions run authorized (FULL): they may read the user's settings.
 */
import { loadSettings } from '../app/context';
import { spreadsheetUi, htmlTemplate } from '../apps-script';

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
