/**
 * The add-on's public surface: every export here becomes a top-level Apps Script function
 * (menu actions, triggers, functions the sidebar calls, custom functions). The build generates
 * those declarations from this file's exports, so adding an export is all it takes.
 */
export { onOpen, onInstall, menuScanSheet, menuScanHistory, menuSettings, menuHelp } from './entry/menu';
export { getSettings, saveSettings, testConnection } from './app/settings';
export { getScanSetup, previewScan, startScan } from './app/newscan';
export { getScanProgress, getRunningScans, cancelScan } from './app/progress';
export { importScan } from './app/import';
export { listScans, deleteScan, downloadScan, exportScan } from './app/history';
export { importFinishedScans } from './app/trigger';
export { ASIN_FROM_UPC, ASIN_FROM_EAN, ASIN_FROM_ISBN, UPC_FROM_ASIN, EAN_FROM_ASIN, ISBN_FROM_ASIN, GTIN_FROM_ASIN, JAN_FROM_ASIN, IDENTIFIERS_FROM_ASIN } from './formulas/functions';
export { setFormulaKeySharing, convertSelectedColumn, menuConvertColumn } from './app/formulas';
export { openResultTab } from './app/history';
export { setUpLists, previewSync, syncNow, resolveConflicts, getListsStatus, selectRow, setAutoSync, menuSyncLists } from './app/lists/server';
export { listWebhooks, createWebhook, updateWebhook, deleteWebhook, regenerateWebhookSecret } from './app/webhooks/functions';
