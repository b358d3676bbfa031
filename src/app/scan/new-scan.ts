/**
 * New scan: the sidebar's getScanSetup / previewScan / startScan.
 *
 * Reading the sheet: the block is the selection when the user selected more than one cell, else the
 * sheet's data range. Setup reads only the top of it (SETUP_ROWS rows: enough to find the header and
 * sample every column; blocks wider than MAX_COLUMNS are refused before reading). Preview and start
 * read only the MAPPED columns: one getValues and one getDisplayValues per contiguous run of mapped
 * columns (runs closer than a few cells' worth are read as one), over every row of the block. Reads
 * cost per cell, so a wide block with few mapped columns costs what a narrow one does (see README
 * for the figures). Before anything is read in full, a block over MAX_LINES data rows, or whose
 * mapped cells pass MAX_READ_CELLS (time) or whose rows from the first to the last mapped column
 * pass MAX_SPAN_CELLS (memory of the rows handed to prepareScan), is refused with its size and what
 * to select instead. A row is blank when all its mapped cells are.
 *
 * Which block: ScanSetup names it (sheetName, rangeA1, selection); the sidebar sends those back in
 * the ScanRequest (optional fields), so preview and start read what the user saw even when the
 * selection moved meanwhile. A data-range setup re-reads the CURRENT data range of that sheet (rows
 * added since are included). Without them, the active sheet/selection is read again.
 *
 * After a successful upload the hourly import trigger is made sure of (src/app/trigger/install.ts), so a
 * scan finished while the sidebar is closed is imported anyway.
 *
 * Upload (contract 2.1): multipart `file` (the prepared CSV, text/csv, "<name>.csv") and
 * `attributes` (JSON text). Retries: 429 waits Retry-After, 5xx and unreachable back off (the
 * client's policy, src/api/retry.ts). A time-out is NOT retried for the upload: the service may have
 * stored the scan before the answer was lost, and a retry would start it twice; the message says to
 * look in Scans (history). Only after the service answered with the scan's id is it recorded as
 * running, so a failed upload leaves nothing behind.
 */
import { uploadScan } from '../../api/scans';
import { UPLOAD_BUDGET_MS } from '../../domain/time-budgets';
import { problemError, problemOf } from '../../api/exceptions';
import { findMarketplace } from '../../../contract/marketplaces';
import { suggestColumns } from '../../domain/price-list/header';
import { mappingFromRoles } from '../../domain/price-list/mapping';
import { prepareScan, previewSummary, unpreparedScan, type PreparedScan, type PreviewSummary } from '../../domain/price-list/prepare';
import type { ScanRequest, ScanSetup, StartedScan } from './protocol';
import { activeSpreadsheet, documentProperties, formatInSpreadsheetZone, now, textBlob } from '../../apps-script';
import { apiContext, asSidebarCall, loadSettings, serviceSettings } from '../context';
import { notSentRecord, recordNotSent } from '../records/not-sent';
import { recordScanSent } from '../records/decision';
import { DEFAULT_DECISION, readDecisionOptions } from '../../domain/price-list/decide';
import { readRoom } from '../records/room';
import { NEEDS_ROOM_MARKER, withMarker } from '../failure';
import { readTuning } from '../records/import-tuning';
import { checkRoom, type RoomCheck } from '../../domain/price-list/room';
import { columnSetOf, type ColumnSet } from '../../domain/result-tabs/all-columns';
import { marketplaceOptions } from '../settings/rules';
import { runningScans } from './progress';
import { progressFromScan } from './progress-read';
import { recordRunningScan } from './running';
import { newScanHelp } from './help';
import { ensureImportTrigger, triggerNotice } from '../trigger/install';
import { dataRowAsHeader, headerAbove, locateBlock, placeHeader, readBlockRows, readRuns } from './block';
import { recallSetup, rememberScan } from './memory';
import {
  defaultScanName,
  isBlankRow,
  mappedRuns,
  MAX_COLUMNS,
  MAX_LINES,
  perUnitCostPacks,
  readRefusal,
  resultTabWidth,
  scanRefusal,
  roleChoices,
  safeFileName,
  SETUP_ROWS,
} from './plan';
import { commas, count } from '../../../contract/numbers';

/** Starts startScan's refusal of results that cannot fit (the sidebar then offers Send anyway). */
const NOT_SENT_FULL = 'Not sent, so nothing is charged. ';

/**
 * Sidebar: what the New scan form shows (columns with suggested roles and samples, defaults). With
 * `again` (the form's block and the header row the user chose, 0 for none), the same block is read
 * with that header row.
 */
export function getScanSetup(again?: Partial<ScanRequest> | null): ScanSetup {
  return asSidebarCall(() => {
    const b = locateBlock(again || undefined);
    if (b.numColumns > MAX_COLUMNS) {
      throw new Error(
        'The ' +
          (b.selection ? 'selection' : 'sheet "' + b.sheetName + '"') +
          ' has ' +
          count(b.numColumns) +
          ' columns (' +
          b.rangeA1 +
          '); the add-on reads at most ' +
          MAX_COLUMNS +
          '. Select the columns of the price list (with its header row) and open Scan this sheet again.',
      );
    }
    const top = readBlockRows(b, Math.min(b.numRows, SETUP_ROWS));
    if (top.values.every(isBlankRow)) {
      throw new Error(
        b.selection
          ? 'The selected cells are empty. Select the price list (with its header row), or one cell to scan the whole sheet.'
          : 'The sheet "' + b.sheetName + '" is empty. Open the sheet with the price list and try again.',
      );
    }
    const place = placeHeader(b, top.values, again ? again.headerRow : undefined);
    // A header above a selection is put on top of its rows, so names and samples come out as usual.
    let values = top.values;
    let display = top.display;
    let headerRow = place.index;
    if (place.above) {
      const head = headerAbove(b, place, 0, b.numColumns);
      values = [head.values].concat(values);
      display = [head.display].concat(display);
      headerRow = 0;
    }
    // A row the user chose that holds data is said so (the preview refuses it), like a header the add-on is unsure of.
    const headerQuestion = (headerRow >= 0 && dataRowAsHeader(place.sheetRow, values[headerRow])) || place.question || '';
    const columns = perUnitCostPacks(suggestColumns(values, headerRow, { display, firstSheetColumn: b.column })).map((c) => ({
      index: c.index,
      letter: c.letter,
      header: c.header,
      sample: c.sample,
      role: c.role,
    }));
    const settings = loadSettings();
    let running: ScanSetup['running'] = [];
    if (settings.apiKey) {
      try {
        running = runningScans();
      } catch (_e) {
        running = []; // the form must open even when the service cannot be asked now
      }
    }
    // Supplier memory: a list scanned before starts with its roles and options (and says so).
    return recallSetup(b, place.sheetRow, {
      sheetName: b.sheetName,
      rangeA1: b.rangeA1,
      selection: b.selection,
      headerRow: place.sheetRow,
      headerQuestion,
      rowCount: b.numRows - (place.index + 1),
      columns,
      roles: roleChoices(),
      defaultName: defaultScanName(b.sheetName, formatInSpreadsheetZone(new Date(now()), 'yyyy-MM-dd')),
      defaultMarketplace: settings.marketplace,
      marketplaces: marketplaceOptions(),
      running,
      help: newScanHelp(),
    });
  });
}

// ---- Preview and start -------------------------------------------------------------------------

/** Reads the block in full and prepares the scan for the request's roles and options. */
function prepareFromSheet(request: ScanRequest): PreparedScan {
  if (!request || !Array.isArray(request.roles) || !request.options)
    throw new Error('The scan form was incomplete. Open Scan this sheet again.');
  const b = locateBlock(request);
  if (b.numRows - 1 > MAX_LINES) {
    throw new Error(
      'The sheet has ' +
        b.numRows +
        ' rows; a scan takes at most ' +
        commas(MAX_LINES) +
        '. Select a part of the list (with its header row) and scan it.',
    );
  }
  if (request.roles.length !== b.numColumns) {
    throw new Error(
      'The sheet changed since the form was opened (' +
        b.numColumns +
        ' columns now, ' +
        request.roles.length +
        ' in the form). Open Scan this sheet again.',
    );
  }
  const options = { ...request.options };
  if (options.marketplace === undefined || options.marketplace === null || String(options.marketplace).trim() === '')
    options.marketplace = loadSettings().marketplace;
  // A missing role is named with every option problem at once (nothing is read: the rows cannot be checked yet).
  const checked = mappingFromRoles(request.roles, b.column);
  if (!checked.ok) return withDecisionProblems(unpreparedScan(checked.errors, options), options);
  const runs = mappedRuns(request.roles, b.numRows);
  const tooLarge = readRefusal(b.numRows, b.numColumns, runs, b.column);
  if (tooLarge) throw new Error(tooLarge);
  // The header row the form was built with (0: none); absent: found again as the setup finds it.
  const chosen = typeof request.headerRow === 'number' ? request.headerRow : undefined;
  const place = placeHeader(b, chosen === undefined ? readBlockRows(b, Math.min(b.numRows, SETUP_ROWS)).values : [], chosen);
  const { values, display, offset } = readRuns(b, runs);
  // The rows start at the first mapped column: the mapping is shifted to match, messages still name real columns.
  const mapping = mappingFromRoles(request.roles.slice(offset), b.column + offset);
  if (!mapping.ok) throw new Error(mapping.errors.join(' '));
  let headerRow = place.index;
  let firstSheetRow = b.row;
  if (place.above) {
    const width = runs[runs.length - 1][1] - offset + 1;
    const head = headerAbove(b, place, offset, width);
    values.unshift(head.values);
    display.unshift(head.display);
    headerRow = 0;
    firstSheetRow = b.row - 1; // values[i] is sheet row b.row - 1 + i: the data keeps its real row numbers
  }
  const prepared = prepareScan({
    values,
    display,
    headerRow,
    firstSheetRow,
    firstSheetColumn: b.column + offset,
    mapping: mapping.mapping,
    options,
  });
  // A data row taken as the header would never be scanned, and it names the columns wrong.
  const mappedHeader = headerRow >= 0 ? values[headerRow].filter((_v, i) => request.roles[offset + i] !== 'ignore') : [];
  const dataHeader = headerRow >= 0 ? dataRowAsHeader(place.sheetRow, mappedHeader) : null;
  if (dataHeader) {
    prepared.problems.unshift({ field: 'headerRow', message: dataHeader });
    prepared.ok = false;
  }
  return withDecisionProblems(prepared, options);
}

/** The add-on's own options (never uploaded): a wrong one stops the scan like any other option, named with the others. */
function withDecisionProblems(prepared: PreparedScan, options: ScanRequest['options']): PreparedScan {
  const decision = readDecisionOptions(options);
  if (!decision.ok) {
    prepared.problems = prepared.problems.concat(decision.problems);
    prepared.ok = false;
  }
  return prepared;
}

/**
 * A refusal of the upload that names a line of the file (a limit the preview could not know) also
 * names the sheet row the seller knows: line 1 is the CSV's header, line n is rows[n - 2].
 */
function withSheetRow(e: unknown, prepared: PreparedScan): unknown {
  const problem = problemOf(e);
  if (!problem || problem.openSettings) return e;
  const m = /\bline (\d+)\b/.exec(problem.message);
  const row = m ? prepared.rows[Number(m[1]) - 2] : undefined;
  if (!row) return e;
  return problemError({
    ...problem,
    message: problem.message + ' (Line ' + m![1] + ' of the upload is sheet row ' + row.sheetRow + '.)',
  });
}

/**
 * Room for the results: lines to send x products a line x the columns the import will write,
 * against the cells this spreadsheet has left (every tab's grid counts). Null when nothing can be sent.
 */
function roomFor(prepared: PreparedScan, pictures: boolean, set: ColumnSet): RoomCheck | null {
  const { attributes } = prepared;
  if (!prepared.ok || !attributes) return null;
  const room = readRoom(activeSpreadsheet(), documentProperties(), readTuning().cellLimit);
  const columnsOf = (s: ColumnSet) => resultTabWidth(attributes, pictures, s);
  const columns = columnsOf(set);
  return checkRoom({
    lines: prepared.counts.send,
    columns,
    // All columns: the message says how many the essential ones would save.
    ...(set === 'all' ? { beyondEssential: columns - columnsOf('essential') } : {}),
    notSent: prepared.skipped.length,
    limit: room.limit,
    used: room.used,
    resultTabs: room.resultTabs,
  });
}

/** New scan's "Pictures" (issue 36): on unless the seller turned it off. */
function picturesChosen(request: ScanRequest): boolean {
  return !(request.options && request.options.pictures === false);
}

/** Sidebar: what would be sent, skipped and repaired (real sheet row numbers), option problems, and the room for the results. */
export function previewScan(request: ScanRequest): PreviewSummary {
  return asSidebarCall(() => {
    const prepared = prepareFromSheet(request);
    const room = roomFor(prepared, picturesChosen(request), columnSetOf(request.columns));
    return room ? { ...previewSummary(prepared), room } : previewSummary(prepared);
  });
}

/**
 * Sidebar: re-reads the sheet, prepares, uploads, records the scan as running (document properties,
 * ids only) and answers its first progress and the preview of what was sent.
 */
export function startScan(request: ScanRequest): StartedScan {
  const startedAt = now();
  return asSidebarCall(() => sendScan(request, startedAt));
}

/**
 * startScan's body, also what a scheduled re-scan calls (src/app/results/schedule-run.ts): the same
 * read, checks, upload and records. Throws the service's problems as they are.
 */
export function sendScan(request: ScanRequest, startedAt: number): StartedScan {
  const settings = loadSettings();
  const service = serviceSettings(settings);
  const prepared = prepareFromSheet(request);
  if (!prepared.ok || !prepared.attributes) throw new Error(scanRefusal(prepared));
  if (prepared.counts.send > MAX_LINES)
    throw new Error('The scan was not started: ' + prepared.counts.send + ' rows to send; a scan takes at most ' + MAX_LINES + '.');
  // Before anything is paid for: results that cannot fit are refused with the numbers and what fits,
  // unless the user chose to send anyway (to import with filters, or to download the results).
  const columnSet = columnSetOf(request.columns);
  const room = roomFor(prepared, picturesChosen(request), columnSet);
  if (room && !room.fits && request.sendWhenFull !== true) throw new Error(withMarker(NEEDS_ROOM_MARKER, NOT_SENT_FULL + room.message!));
  const name = prepared.attributes.options.name;
  // The upload's size was checked by prepareScan (uploadSizeProblem): nothing too large gets here.
  const attributes = JSON.stringify(prepared.attributes);
  const form = {
    file: textBlob(prepared.csv, 'text/csv', safeFileName(name) + '.csv'),
    attributes,
  };
  let body: unknown;
  try {
    body = uploadScan(apiContext(startedAt + UPLOAD_BUDGET_MS, service), form, String(prepared.attributes.options.marketplace_id || ''));
  } catch (e) {
    throw withSheetRow(e, prepared);
  }
  const progress = progressFromScan(body);
  if (!progress) throw new Error('The Scan Service accepted the upload but its answer has no scan id. Look in Scans (history).');
  if (!progress.name) progress.name = name;
  if (!progress.marketplace)
    progress.marketplace = findMarketplace(prepared.attributes.options.marketplace_id)?.code || prepared.attributes.options.marketplace_id;
  try {
    recordRunningScan(progress.scanId);
  } catch (e) {
    // The scan IS started: failing now would make the user start it twice. Without the record the
    // sidebar still has its progress, and Scans (history) lists it once finished.
    console.log('scan ' + progress.scanId + ' started but not recorded: ' + (e instanceof Error ? e.message : String(e)));
  }
  try {
    // The rows skipped before the upload go to the scan's errors tab at import (never fails the start).
    recordNotSent(documentProperties(), progress.scanId, notSentRecord(prepared.skipped));
  } catch (e) {
    console.log('scan ' + progress.scanId + ': skipped rows not recorded: ' + (e instanceof Error ? e.message : String(e)));
  }
  try {
    // The seller's decision options, for the import's expected share and costs, and what was sent, for
    // the import's column labels (the service may not echo the mapping back). Never fails the start.
    const decision = readDecisionOptions(request.options);
    const a = prepared.attributes;
    const sent = {
      mapping: a.mapping as Record<string, unknown>,
      custom: (a.options.custom_columns || []).slice(),
      marketplace: findMarketplace(a.options.marketplace_id)?.code || String(a.options.marketplace_id || ''),
      lines: prepared.counts.send,
    };
    recordScanSent(documentProperties(), progress.scanId, decision.ok ? decision.options : DEFAULT_DECISION, sent, {
      pictures: picturesChosen(request),
      columns: columnSet,
    });
  } catch (e) {
    console.log('scan ' + progress.scanId + ': decision options not recorded: ' + (e instanceof Error ? e.message : String(e)));
  }
  rememberScan(request, progress.scanId); // this list's roles and options, for its next New scan (never fails the start)
  // If the sidebar is closed before the scan ends, the hourly trigger imports it (a convenience: never fails the start).
  const notice = triggerNotice(ensureImportTrigger());
  return { progress, preview: room ? { ...previewSummary(prepared), room } : previewSummary(prepared), notice };
}
