/**
 * Supplier memory, the sheet side (design: src/domain/price-list/memory.ts; storage: src/store/suppliers.ts):
 * New scan's setup recognises a list scanned before and fills in its roles and options; a started
 * scan is remembered; Settings lists and forgets. Per user (user properties) and per document.
 * The memory is a convenience: a failure to read or write it never stops a setup or a scan.
 */
import { mappingFromRoles, roleLabel } from '../../domain/price-list/mapping';
import { entryForScan, recall, rolesFor, type SupplierEntry } from '../../domain/price-list/memory';
import { prepareScan } from '../../domain/price-list/prepare';
import type { ColumnSet } from '../../domain/result-tabs/all-columns';
import { forgetSupplierEntry, readSuppliers, rememberSupplier } from '../../store/suppliers';
import { activeSpreadsheet, formatInSpreadsheetZone, now, userProperties } from '../../apps-script';
import { asSidebarCall } from '../context';
import { type Block, locateBlock } from './block';
import { resultTabWidth } from './plan';
import type { RememberedSupplier, ScanRequest, ScanSetup } from './protocol';
import { EMAIL_LABEL, getSchedules, removeSchedule, scheduleChoices, scheduleText } from './schedule';

function day(t: number): string {
  return formatInSpreadsheetZone(new Date(t), 'MMM d, yyyy');
}

/**
 * The setup with the remembered roles and options of this list, and the line that says so; or the
 * line saying the header changed since this sheet's last scan. Unchanged when nothing is known.
 */
export function recallSetup(b: Block, headerSheetRow: number, setup: ScanSetup): ScanSetup {
  try {
    if (!(headerSheetRow > 0)) return setup; // no header row: nothing names the list
    const names = setup.columns.map((c) => c.header);
    const r = recall(readSuppliers(userProperties(), activeSpreadsheet().getId()), b.sheet.getSheetId(), names, b);
    if (r.kind === 'unknown') return setup;
    if (r.kind === 'header-changed')
      return { ...setup, memory: { note: 'The header row changed since ' + day(r.entry.t) + ': columns guessed again.' } };
    const roles = rolesFor(r.entry, names);
    return {
      ...setup,
      columns: setup.columns.map((c, i) => ({ ...c, role: roles[i] })),
      memory: {
        note: 'Columns and options as in your scan of ' + r.entry.n + ' on ' + day(r.entry.t) + ' — change any.',
        options: r.entry.o,
        ...(r.entry.c === 'all' ? { columns: r.entry.c } : {}),
      },
    };
  } catch (e) {
    console.log('supplier memory not read: ' + (e instanceof Error ? e.message : String(e)));
    return setup;
  }
}

/**
 * Remembers the roles and options of a scan just started (never fails the start). The header's names
 * are the ones the form was built from (`request.headers`, ScanSetup's column headers): the start
 * reads only the mapped columns, and reading the whole header row again would cost a sheet read.
 * Without them (a caller other than the form) nothing is remembered.
 */
export function rememberScan(request: ScanRequest, scanId?: number): void {
  try {
    const names = request.headers;
    const headerRow = request.headerRow;
    if (!Array.isArray(names) || names.length !== request.roles.length || typeof headerRow !== 'number' || !(headerRow > 0)) return;
    const b = locateBlock(request);
    if (names.length !== b.numColumns) return;
    const entry = entryForScan({
      names: names.map((n) => String(n)),
      roles: request.roles,
      options: request.options,
      sheetId: b.sheet.getSheetId(),
      sheetName: b.sheetName,
      rangeA1: b.rangeA1,
      selection: b.selection,
      headerRow,
      at: now(),
      scanId,
      columns: request.columns,
    });
    rememberSupplier(userProperties(), activeSpreadsheet().getId(), entry);
  } catch (e) {
    console.log('supplier memory not written: ' + (e instanceof Error ? e.message : String(e)));
  }
}

/**
 * The columns a scan of this supplier's list gets in its result tab, as the room check counts them:
 * its remembered roles and options made into an upload (the header alone; the count does not depend
 * on the rows). Null when they would not make one (nothing is said then rather than a guess).
 */
function tabWidth(e: SupplierEntry, pictures: boolean, set: ColumnSet): number | null {
  const keys = Object.keys(e.r);
  const mapped = mappingFromRoles(keys.map((k) => e.r[k]));
  if (!mapped.ok) return null;
  const prepared = prepareScan({
    values: [keys],
    headerRow: 0,
    firstSheetRow: e.hr,
    mapping: mapped.mapping,
    // The marketplace and the name shape no column: any valid ones make the upload's options.
    options: { ...e.o, marketplace: 'US', name: e.n || 'List' },
  });
  return prepared.attributes ? resultTabWidth(prepared.attributes, pictures, set) : null;
}

/**
 * What the next New scan of a supplier's list and its scheduled re-scans use besides the roles, in
 * words: Pictures, and the column choice with the tab's width under both choices (so a seller sees
 * why a re-scan has so many columns, and what the other choice would give).
 */
function usesOf(e: SupplierEntry): string[] {
  const pictures = e.o.pictures !== false;
  const all = e.c === 'all';
  const mine = tabWidth(e, pictures, all ? 'all' : 'essential');
  const other = tabWidth(e, pictures, all ? 'essential' : 'all');
  const columns = all ? 'Columns: all' : 'Columns: the essential ones';
  return [
    'Pictures: ' + (pictures ? 'on' : 'off'),
    mine === null || other === null
      ? columns
      : columns + ' (up to ' + mine + ' in the result tab; ' + (all ? 'the essential ones' : 'all') + ': up to ' + other + ')',
  ];
}

/** Sidebar (Settings): this user's remembered suppliers in this document, newest first. */
export function getRememberedSuppliers(): RememberedSupplier[] {
  return asSidebarCall(() => {
    const schedules = getSchedules();
    const choices: Array<[string, string]> = [['', 'Not scanned again']].concat(
      scheduleChoices().map((c) => [c.value, 'E' + c.label.slice(1)] as [string, string]),
    ) as Array<[string, string]>;
    return readSuppliers(userProperties(), activeSpreadsheet().getId()).map((e) => {
      const v = schedules.find((x) => x.id === e.h);
      return {
        id: e.h,
        sheetName: e.n,
        scannedOn: day(e.t),
        columns: Object.keys(e.r)
          .filter((k) => e.r[k] !== 'custom')
          .map((k) => roleLabel(e.r[k]) + ': ' + k)
          .join(', '),
        uses: usesOf(e),
        rule: v ? v.rule : '',
        choices,
        schedule: v ? scheduleText(v) : '',
        email: v ? v.email : false,
        emailLabel: v ? v.emailLabel : EMAIL_LABEL,
        scanId: e.i || 0,
      };
    });
  });
}

/**
 * Sidebar (Settings): forgets one remembered supplier and removes its re-scan schedule (first: a
 * schedule left behind would only pause at its next slot, listed in Scans without a list); the list after.
 */
export function forgetSupplier(id: string): RememberedSupplier[] {
  return asSidebarCall(() => {
    if (typeof id !== 'string' || !id) throw new Error('Choose a supplier to forget.');
    removeSchedule(id);
    forgetSupplierEntry(userProperties(), activeSpreadsheet().getId(), id);
    return getRememberedSuppliers();
  });
}
