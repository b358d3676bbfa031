/**
 * Importing a finished scan into its tab: the filters and sort the user picks (passed to the API
 * through importScan), and the import loop — importScan is called again while the server says the
 * tab is not complete yet (it stops at a checkpoint before Apps Script's 6-minute limit).
 */
import type { ImportProgress, ImportRequest, ResultFilter } from '../src/app/protocol';
import { live, btnRow, act, busy, button, checkbox, fill, h, select } from './dom';
import { fail } from './app';
import { num } from './format';
import { call, untilDone } from './server';

/** Filters offered, in the user's units (the server converts money to cents and percents to basis points). */
export const FILTERS: Array<{ field: string; operator: ResultFilter['operator']; label: string }> = [
  { field: 'profit', operator: '>=', label: 'Profit at least' },
  { field: 'roi', operator: '>=', label: 'ROI on Total cost at least (%)' },
  { field: 'margin', operator: '>=', label: 'Margin at least (%)' },
  { field: 'rank', operator: '<=', label: 'Rank at most' },
  { field: 'units_per_month', operator: '>=', label: 'Units sold / month at least' },
  { field: 'profit_per_month', operator: '>=', label: 'Profit / month at least' },
  { field: 'total_offers_count', operator: '<=', label: 'Offers at most' },
  { field: 'buybox_price', operator: '<=', label: 'Buy box price at most' },
];

/** Yes/no fields a seller leaves out: ticked means "only rows where it is false". */
export const EXCLUDES: Array<{ field: string; label: string }> = [
  { field: 'is_hazmat', label: 'Leave out hazmat' },
  { field: 'is_adult', label: 'Leave out adult' },
  { field: 'is_meltable', label: 'Leave out meltable' },
  { field: 'is_brand_blocklisted', label: 'Leave out blocklisted brands' },
];

export const SORTS: Array<[string, string]> = [
  ['', 'As the service lists them'],
  ['-profit', 'Profit, highest first'],
  ['-roi', 'ROI on Total cost, highest first'],
  ['-margin', 'Margin, highest first'],
  ['rank', 'Rank, best first'],
  ['-units_per_month', 'Units / month, most first'],
  ['-profit_per_month', 'Profit / month, highest first'],
];

/**
 * A number as typed: currency signs, spaces and % ignored; commas before groups of three digits are
 * thousands separators ("50,000"), another comma is a decimal one ("2,5"). NaN when unreadable
 * ("1.299,00" is refused rather than guessed).
 */
export function readNumber(text: string): number {
  const t = text
    .replace(/[\s$€£¥%]/g, '')
    .replace(/,(?=\d{3}(\D|$))/g, '')
    .replace(',', '.');
  return /^[+-]?(\d+\.?\d*|\.\d+)$/.test(t) ? Number(t) : NaN;
}

/** Safety net: an import that never says done stops after this many calls. */
const MAX_IMPORT_CALLS = 500;

/** Calls importScan until the tab is complete, reporting each step. */
export async function importAll(scanId: number, request: ImportRequest, onStep: (p: ImportProgress) => void): Promise<ImportProgress> {
  const p = await untilDone(MAX_IMPORT_CALLS, () => call('importScan', scanId, request), onStep);
  if (p) return p;
  throw new Error('The import did not finish after ' + MAX_IMPORT_CALLS + ' steps. Try again.');
}

function importText(p: ImportProgress): Array<string | HTMLElement> {
  if (!p.done) return ['Writing results: ' + num(p.rowsWritten) + ' of ' + num(p.totalRows) + ' rows…'];
  // The server's own summary when it gives one (it names the tabs), else ours.
  if (p.message) return [p.message];
  const out: Array<string | HTMLElement> = [num(p.rowsWritten) + ' rows in tab ', h('b', null, p.sheetName)];
  if (p.errorsSheetName) out.push(', rows the service could not use in ', h('b', null, p.errorsSheetName));
  out.push('.');
  return out;
}

/**
 * The results block of a finished scan: filters, sort and an Import button. `auto` imports at once
 * (a scan that just finished and has no tab yet).
 */
export function resultsPanel(scanId: number, resultSheet: string | null, auto: boolean): HTMLElement {
  const inputs = FILTERS.map((f) =>
    h('input', { type: 'text', inputmode: 'decimal', 'data-field': f.field, 'aria-label': f.label, size: 6 }),
  );
  const sort = select(SORTS, '', { 'aria-label': 'Sort', name: 'sort' });
  const excludes = EXCLUDES.map((x) => checkbox(x.label, false, { 'data-field': x.field }));
  const status = live('import-status');
  if (resultSheet) fill(status, 'Results are in tab ', h('b', null, resultSheet), '.');

  const request = (): ImportRequest | string => {
    const filters: ResultFilter[] = [];
    for (let i = 0; i < FILTERS.length; i++) {
      const text = inputs[i].value.trim();
      inputs[i].removeAttribute('aria-invalid');
      if (!text) continue;
      const value = readNumber(text);
      if (!isFinite(value)) {
        inputs[i].setAttribute('aria-invalid', 'true');
        return FILTERS[i].label + ': enter a number.';
      }
      filters.push({ field: FILTERS[i].field, operator: FILTERS[i].operator, value });
    }
    EXCLUDES.forEach((x, i) => {
      if (excludes[i].input.checked) filters.push({ field: x.field, operator: '=', value: false });
    });
    const r: ImportRequest = { filters };
    if (sort.value) r.sort = sort.value;
    return r;
  };

  // Whether the tab imported last is the filtered one: "Open tab" opens that one.
  let filtered = false;
  const run = () =>
    busy(go, async () => {
      const r = request();
      if (typeof r === 'string') {
        fill(status, h('span', 'error', r));
        return;
      }
      fill(status, 'Writing results…');
      try {
        const done = await importAll(scanId, r, (p) => fill(status, ...importText(p)));
        filtered = !!(r.filters && r.filters.length);
        hasTab(true);
        fill(status, ...importText(done));
      } catch (e) {
        fill(status);
        fail(e);
      }
    });
  const go = button('Import results', run, 'action');
  // Shown once the scan has a tab here: brings it to the front (the server finds it also when renamed).
  const open = act('Open tab', async () => {
    const r = await call('openResultTab', scanId, filtered);
    fill(status, 'Tab ', h('b', null, r.sheetName), ' is open.');
  });
  // Compare with an earlier scan (issue 23): the previous scan of the same supplier is chosen first.
  const cmp = act('Compare…', async () => {
    const c = await call('compareChoices', scanId);
    if (!c.scans.length) return fill(status, c.none);
    const pick = select(
      c.scans.map((s) => [String(s.scanId), (s.label || s.name) + (s.sameSupplier ? ' (same list)' : '')]),
      String(c.suggested || c.scans[0].scanId),
      { 'aria-label': 'Compare with' },
    );
    const run2 = act(
      'Compare',
      async () => {
        await untilDone(
          MAX_IMPORT_CALLS,
          () => call('compareScans', scanId, Number(pick.value)),
          (p) => (p.done && p.sheetName ? fill(status, 'Tab ', h('b', null, p.sheetName), ': ', p.summary) : fill(status, p.message)),
        );
      },
      'action',
    );
    fill(status, pick, ' ', run2);
  });
  // Once the scan has a tab here, the next step is to open it; importing again is the lesser action.
  const hasTab = (yes: boolean) => {
    open.hidden = cmp.hidden = !yes;
    open.className = yes ? 'action' : '';
    go.className = yes ? '' : 'action';
    go.textContent = yes ? 'Import again' : 'Import results';
    if (yes) buttons.insertBefore(open, go);
  };
  const buttons = btnRow(go, open, cmp);
  hasTab(!!resultSheet);

  const grid = h('div', 'filters', ...FILTERS.map((f, i) => h('label', null, h('span', null, f.label), inputs[i])));
  const panel = h(
    'div',
    'results',
    // Folded until asked: a list of scans is not a wall of filter fields.
    h(
      'details',
      'filterset',
      h('summary', null, 'Filters and sort'),
      grid,
      h('div', 'excludes', ...excludes.map((x) => x.row)),
      h('label', 'sort', h('span', null, 'Sort'), sort),
      h(
        'div',
        'hint',
        'With filters, the rows they keep go to their own tab "… (filtered)", replaced by the next filtered import; the full results stay in their tab.',
      ),
    ),
    buttons,
    status,
  );
  if (auto && !resultSheet) void run();
  return panel;
}
