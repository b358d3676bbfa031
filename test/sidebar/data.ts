/** Canned server answers shaped per src/app/protocol.ts (the type check keeps them in step). */
import type { ImportProgress, ScanListPage, ScanProgress, ScanSetup, SettingsView } from '../../src/app/protocol';
import type { PreviewSummary } from '../../src/domain/price-list/prepare';
import { newScanHelp } from '../../src/app/scan/help';
import { settingsHelp } from '../../src/app/settings/help';

export const MARKETPLACES = [
  { code: 'US', name: 'United States' },
  { code: 'CA', name: 'Canada' },
  { code: 'DE', name: 'Germany' },
];

export function settings(over: Partial<SettingsView> = {}): SettingsView {
  return {
    apiKeyMasked: '••••••••cdef',
    hasApiKey: true,
    serviceUrl: 'https://scan.example.com',
    defaultMarketplace: 'US',
    marketplaces: MARKETPLACES,
    formulaKeyShared: false,
    isOwner: true,
    formulaNote:
      'Formulas such as =ASIN_FROM_UPC() need this to run. Every recalculation, also by an editor, is a lookup on your Scan Service account and counts against your quota.',
    help: settingsHelp(),
    ...over,
  };
}

export const ROLES: ScanSetup['roles'] = [
  { role: 'identifier', label: 'Identifier' },
  { role: 'cost', label: 'Cost' },
  { role: 'sku', label: 'SKU' },
  { role: 'map', label: 'MAP' },
  { role: 'stock', label: 'Stock' },
  { role: 'pack_quantity', label: 'Pack quantity' },
  { role: 'image', label: 'Image' },
  { role: 'discount', label: 'Discount' },
  { role: 'custom', label: 'Custom column' },
  { role: 'ignore', label: 'Not used' },
];

export function setup(over: Partial<ScanSetup> = {}): ScanSetup {
  return {
    sheetName: 'Price list',
    rangeA1: 'A1:D41',
    headerRow: 1,
    rowCount: 40,
    columns: [
      { index: 0, letter: 'A', header: 'UPC', sample: '012345678905', role: 'identifier' },
      { index: 1, letter: 'B', header: 'Description', sample: 'Blue widget, 12 pack', role: 'custom' },
      { index: 2, letter: 'C', header: 'Unit cost', sample: '$1,299.00', role: 'cost' },
      { index: 3, letter: 'D', header: 'Item #', sample: 'W-100', role: 'sku' },
    ],
    roles: ROLES,
    defaultName: 'Price list 2026-11-21',
    defaultMarketplace: 'US',
    marketplaces: MARKETPLACES,
    running: [],
    selection: false,
    help: newScanHelp(),
    ...over,
  };
}

export function preview(over: Partial<PreviewSummary> = {}): PreviewSummary {
  return {
    ok: true,
    problems: [],
    counts: {
      dataRows: 40,
      send: 36,
      skipped: 3,
      repairedRows: 2,
      duplicateRows: 2,
      warnings: 1,
      bySkipReason: { 'no-identifier': 2, 'unusable-cost': 1 },
    },
    skipped: [
      {
        sheetRow: 7,
        reason: 'no-identifier',
        detail: 'blank',
        message: 'Row 7: no identifier.',
        identifier: '',
        problems: ['no identifier.'],
      },
      {
        sheetRow: 12,
        reason: 'no-identifier',
        detail: 'blank',
        message: 'Row 12: no identifier.',
        identifier: '',
        problems: ['no identifier.'],
      },
      {
        sheetRow: 19,
        reason: 'unusable-cost',
        detail: 'not-a-number',
        message: 'Row 19: the cost "call us" is not a number.',
        identifier: '012345678912',
        problems: ['the cost "call us" is not a number.'],
      },
    ],
    repaired: [
      { sheetRow: 4, column: 'A', role: 'identifier', before: '12345678905', after: '012345678905', what: 'leading-zeros' },
      { sheetRow: 9, column: 'C', role: 'cost', before: '1.299,00 €', after: '1299.00', what: 'money-text' },
    ],
    warnings: [{ sheetRow: 22, column: 'D', role: 'stock', value: 'lots', message: 'Row 22: stock "lots" is not a number; sent blank.' }],
    duplicates: [{ identifier: '012345678905', sheetRows: [4, 30] }],
    notListed: { skipped: 0, repaired: 0, warnings: 0, duplicates: 0 },
    csvHeader: ['identifier', 'cost', 'Description', 'Sheet row'],
    ...over,
  };
}

export function progress(over: Partial<ScanProgress> = {}): ScanProgress {
  return {
    scanId: 41,
    name: 'Price list 2026-11-21',
    status: 'running',
    marketplace: 'US',
    lines: 36,
    done: 9,
    products: 9,
    errors: 0,
    speed: 120,
    secondsLeft: 14,
    createdAt: '2026-11-21T00:10:00.000Z',
    completedAt: null,
    resultSheet: null,
    ...over,
  };
}

export function imported(over: Partial<ImportProgress> = {}): ImportProgress {
  return {
    scanId: 41,
    done: true,
    rowsWritten: 34,
    totalRows: 34,
    sheetName: 'Price list 2026-11-21',
    errorsSheetName: 'Price list 2026-11-21 errors',
    message: '',
    ...over,
  };
}

export function listPage(
  page: number,
  scans: ScanProgress[],
  hasMore: boolean,
  notice: string | null = null,
  schedules: string[] = [],
): ScanListPage {
  return { scans, page, hasMore, notice, schedules };
}
