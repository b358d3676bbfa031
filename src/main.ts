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
