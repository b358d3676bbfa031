/**
 * downloadScan: a scan's results as a file, to Drive (byte for byte) or into a new tab (CSV and
 * JSON, through download-grids.ts). The file is fetched with the client's retries but not read as
 * JSON (a `file` call: its answer comes as it is).
 */
import { problemError } from '../../api/exceptions';
import { checkScanId, fetchScanParts, okBody, readScan, type DownloadType } from '../../api/scans';
import { activeSpreadsheet, saveToDrive } from '../../apps-script';
import { apiContext, asSidebarCall } from '../context';
import { csvGrid, fileNameFor, jsonGrid } from './download-grids';
import { deadline } from './history';
import { shortScanName } from './import-plan';
import { tabName } from '../../domain/sheet/tab-name';
import type { DownloadFormat, DownloadResult } from './protocol';

/** Rows per setValues when writing a download into a tab. */
const TAB_CHUNK_ROWS = 5000;

const EXTENSIONS: { [f: string]: string } = { csv: 'csv', xlsx: 'xlsx', json: 'json' };
/** The file's type in Drive (so Drive previews it; never converted into a Google file). */
const DRIVE_MIME_TYPES: { [ext: string]: string } = {
  csv: 'text/csv',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  json: 'application/json',
};

/** A scan's results as a file: to Drive (its link) or into a new tab (CSV and JSON). */
export function downloadScan(scanId: number, format: DownloadFormat, target: 'drive' | 'tab'): DownloadResult {
  return asSidebarCall(() => {
    const id = checkScanId(scanId);
    const ext = EXTENSIONS[String(format)];
    if (!ext) throw new Error('Choose CSV, XLSX or JSON.');
    if (target !== 'drive' && target !== 'tab') throw new Error('Choose Drive or a tab.');
    if (target === 'tab' && ext === 'xlsx')
      throw new Error('An XLSX file can only be saved to Drive. Choose CSV or JSON to put the results into a tab.');
    const answers = fetchScanParts(apiContext(deadline()), [{ record: id }, { download: id, type: ext as DownloadType }]);
    const scan = readScan(okBody(answers[0])) || { name: '' };
    const dl = answers[1];
    if (!dl.ok) {
      if (dl.problem.status === 409)
        throw new Error(`The scan "${String(scan.name || id)}" has not finished yet; download it when it has.`);
      throw problemError(dl.problem);
    }
    const response = dl.response;
    if (!response) throw new Error('The Scan Service sent no file.');
    const scanName = shortScanName(scan.name, id);
    const fileName = fileNameFor(scanName, id, ext);
    if (target === 'drive') {
      const blob = (response as GoogleAppsScript.URL_Fetch.HTTPResponse).getBlob().setName(fileName);
      let saved: { id: string; url: string };
      try {
        saved = saveToDrive(blob, fileName, DRIVE_MIME_TYPES[ext]);
      } catch (e) {
        // E.g. the Drive API is off in the add-on's Cloud project, or Drive refused the file.
        throw new Error(
          `Could not save to Drive: ${e instanceof Error ? e.message : String(e)} Choose a tab instead (CSV or JSON), or try again later.`,
        );
      }
      // Only an https link of Drive's own is handed to the sidebar as a link.
      return { fileName, url: /^https:\/\//.test(saved.url) ? saved.url : null, sheetName: null };
    }
    const text = response.getContentText();
    const grid = ext === 'csv' ? csvGrid(text) : jsonGrid(text);
    const sheetName = writeGrid(scanName, ' (' + ext.toUpperCase() + ')', grid);
    return { fileName, url: null, sheetName };
  });
}

/** Writes cells into a new tab "<scan> (CSV)" (within 31 characters, unique), one setValues per chunk; returns the tab's name. */
function writeGrid(scanName: string, suffix: string, grid: unknown[][]): string {
  const ss = activeSpreadsheet();
  const name = tabName(
    scanName,
    ss.getSheets().map((s) => s.getName()),
    { suffix },
  );
  const width = Math.max(1, grid.length ? grid[0].length : 1);
  const sheet = ss.insertSheet(name, ss.getSheets().length);
  const rows = Math.max(1, grid.length);
  if (sheet.getMaxRows() < rows) sheet.insertRowsAfter(sheet.getMaxRows(), rows - sheet.getMaxRows());
  if (sheet.getMaxColumns() < width) sheet.insertColumnsAfter(sheet.getMaxColumns(), width - sheet.getMaxColumns());
  for (let i = 0; i < grid.length; i += TAB_CHUNK_ROWS) {
    const part = grid.slice(i, i + TAB_CHUNK_ROWS);
    sheet.getRange(i + 1, 1, part.length, width).setValues(part);
  }
  if (grid.length) {
    sheet.getRange(1, 1, 1, width).setFontWeight('bold');
    sheet.setFrozenRows(1);
  }
  sheet.activate();
  return name;
}
