/**
 * The add-on's public surface: every export here becomes a top-level Apps Script function
 * (menu actions, triggers, functions the sidebar calls, custom functions). The build generates
 * those declarations from this file's exports, so adding an export is all it takes.
 */
export {
  onOpen,
  onInstall,
  menuScanSheet,
  menuScanHistory,
  menuSettings,
  menuHelp,
  menuConvertColumn,
  menuSyncLists,
  menuBlockBrands,
  menuBlockAsins,
  menuNotAMatch,
  menuConfirmMatch,
  menuSetUnits,
  menuAddTags,
  menuAddNote,
  menuUndoRowAction,
  menuNegotiate,
  menuPurchaseOrder,
  menuExportTabCsv,
} from './entry/menu';
export { getSettings, saveSettings, testConnection } from './app/settings/settings';
export { getScanSetup, previewScan, startScan } from './app/scan/new-scan';
export { getRememberedSuppliers, forgetSupplier } from './app/scan/memory';
export { getSchedules, scheduleChoices, saveSchedule, pauseSchedule, removeSchedule } from './app/scan/schedule';
export { getScanProgress, getRunningScans, cancelScan } from './app/scan/progress';
export { importScan } from './app/results/import';
export { compareScans, compareChoices } from './app/results/compare';
export { listScans, deleteScan, exportScan } from './app/results/history';
export { downloadScan } from './app/results/downloads';
export { importFinishedScans } from './entry/hourly';
export {
  ASIN_FROM_UPC,
  ASIN_FROM_EAN,
  ASIN_FROM_ISBN,
  UPC_FROM_ASIN,
  EAN_FROM_ASIN,
  ISBN_FROM_ASIN,
  GTIN_FROM_ASIN,
  JAN_FROM_ASIN,
  IDENTIFIERS_FROM_ASIN,
} from './custom-functions/functions';
export {
  setUpLists,
  previewSync,
  syncNow,
  resolveConflicts,
  getListsStatus,
  selectRow,
  setAutoSync,
  restoreListEntries,
} from './app/lists/server';
export { listWebhooks, createWebhook, updateWebhook, deleteWebhook, regenerateWebhookSecret } from './app/webhooks/functions';
export { convertSelectedColumn } from './app/formulas/column';
export { setFormulaKeySharing } from './app/formulas/sharing';
export { openResultTab } from './app/results/history';
export { getHelp } from './app/help/help';
export { getConsent } from './app/trigger/authorization';
export { previewRowAction, applyRowAction, undoRowAction, listRowActions } from './app/actions/server';
export { makeNegotiateTab, makePurchaseOrder, exportTabCsv } from './app/buy/server';

// ---- Compile-time check: the sidebar's calls are exactly the exported server functions ----------
// Every export above that the sidebar may call must be in ServerFunctions (src/app/protocol.ts) with
// a compatible signature, and every entry of ServerFunctions must be exported here; the other entry
// points are named below. A missing, extra or mistyped one fails `tsc` (types only: nothing bundled).
import type { ServerFunctions } from './app/protocol';
import type { ColumnFunction } from './app/formulas/column-job';

/** Entry points the sidebar never calls: menu actions, simple and time-driven triggers, custom functions. */
type NotSidebarCalls =
  | 'onOpen'
  | 'onInstall'
  | 'menuScanSheet'
  | 'menuScanHistory'
  | 'menuSettings'
  | 'menuHelp'
  | 'menuConvertColumn'
  | 'menuSyncLists'
  | 'menuBlockBrands'
  | 'menuBlockAsins'
  | 'menuNotAMatch'
  | 'menuConfirmMatch'
  | 'menuSetUnits'
  | 'menuAddTags'
  | 'menuAddNote'
  | 'menuUndoRowAction'
  | 'menuNegotiate'
  | 'menuPurchaseOrder'
  | 'menuExportTabCsv'
  | 'importFinishedScans'
  | ColumnFunction;
type Exported = typeof import('./main');
type SidebarCalls = Exclude<keyof Exported, NotSidebarCalls>;
type Mistyped = { [K in SidebarCalls & keyof ServerFunctions]: Exported[K] extends ServerFunctions[K] ? never : K }[SidebarCalls &
  keyof ServerFunctions];
type Unlisted = Exclude<NotSidebarCalls, keyof Exported>;
type Expect<T extends { missing: never; extra: never; mistyped: never; unlisted: never }> = T;
/** Fails to compile naming what is missing (in ServerFunctions, not exported), extra (exported, not in ServerFunctions), mistyped or wrongly listed. */
export type SidebarSurfaceCheck = Expect<{
  missing: Exclude<keyof ServerFunctions, SidebarCalls>;
  extra: Exclude<SidebarCalls, keyof ServerFunctions>;
  mistyped: Mistyped;
  unlisted: Unlisted;
}>;
