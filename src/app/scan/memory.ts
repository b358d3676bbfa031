/**
 * Supplier memory, the sheet side (design: src/domain/price-list/memory.ts; storage: src/store/suppliers.ts):
 * New scan's setup recognises a list scanned before and fills in its roles and options; a started
 * scan is remembered; Settings lists and forgets. Per user (user properties) and per document.
 * The memory is a convenience: a failure to read or write it never stops a setup or a scan.
 */
import { roleLabel } from '../../domain/price-list/mapping';
import { entryForScan, recall, rolesFor } from '../../domain/price-list/memory';
import { forgetSupplierEntry, readSuppliers, rememberSupplier } from '../../store/suppliers';
import { activeSpreadsheet, formatInSpreadsheetZone, now, userProperties } from '../../apps-script';
import { asSidebarCall } from '../context';
import { type Block, locateBlock } from './block';
import type { RememberedSupplier, ScanRequest, ScanSetup } from './protocol';
import { EMAIL_LABEL, getSchedules, scheduleChoices, scheduleText } from './schedule';

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

/** Sidebar (Settings): forgets one remembered supplier; the list after. */
export function forgetSupplier(id: string): RememberedSupplier[] {
  return asSidebarCall(() => {
    if (typeof id !== 'string' || !id) throw new Error('Choose a supplier to forget.');
    forgetSupplierEntry(userProperties(), activeSpreadsheet().getId(), id);
    return getRememberedSuppliers();
  });
}
