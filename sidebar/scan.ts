/**
 * New scan: the columns of the active sheet with a role each (suggested by the server, every choice
 * the user's), the scan options, a preview of what would be sent, and Send. Scans still running are
 * listed on top with their progress (closing the sidebar loses nothing: they are found again here).
 */
import type { ColumnRole } from '../src/domain/price-list/mapping';
import type { ScanOptionsInput } from '../src/domain/price-list/attributes';
import { UNIQUE_ROLES } from '../src/domain/price-list/mapping';
import type { PreviewSummary } from '../src/domain/price-list/prepare';
import type { ScanProgress, ScanRequest, ScanSetup } from '../src/app/protocol';
import { fail, register, show } from './app';
import { muted, hint, live, btnRow, act, busy, button, checkbox, field, fill, h, select, type Child } from './dom';
import { num, plural } from './format';
import { scanCard } from './card';
import { dueScansBox } from './suppliers';
import { call, ServerError } from './server';

function render(root: HTMLElement): void {
  const running = h('div', 'running');
  const setupBox = h('div', null, muted('Reading the sheet…'));
  // Scheduled runs due that the hourly trigger could not send: offered first (issue 33).
  const due = dueScansBox((p) => started(p));
  fill(root, due, running, setupBox);
  const shown = new Set<number>();
  const showRunning = (list: ScanProgress[]) => {
    for (const p of list) {
      if (shown.has(p.scanId)) continue;
      shown.add(p.scanId);
      running.appendChild(scanCard(p, { history: false, autoImport: true }));
    }
  };
  call('getRunningScans').then(showRunning, fail);
  const started = (p: ScanProgress) => {
    shown.add(p.scanId);
    const card = scanCard(p, { history: false, autoImport: true });
    running.insertBefore(card, running.firstChild);
    card.scrollIntoView({ block: 'nearest' });
  };
  // The user says which row holds the column names (0: none): the same block is read again with it.
  const withHeader = (setup: ScanSetup, headerRow: number) =>
    call('getScanSetup', { sheetName: setup.sheetName, rangeA1: setup.rangeA1, selection: setup.selection, headerRow }).then(
      (next) => fill(setupBox, form(next, started, withHeader)),
      fail,
    );
  call('getScanSetup').then(
    (setup) => {
      showRunning(setup.running || []);
      fill(setupBox, form(setup, started, withHeader));
    },
    (e) => {
      fill(
        setupBox,
        muted('Select the sheet (or the cells) with the price list, then reopen New scan.'),
        button('Try again', () => render(root)),
      );
      fail(e);
    },
  );
}

/** "Header row [n] Use": the row with the column names, 0 when the list has none. */
function headerChoice(setup: ScanSetup, withHeader: (setup: ScanSetup, headerRow: number) => Promise<void>): HTMLElement {
  const input = h('input', {
    type: 'number',
    min: '0',
    step: '1',
    name: 'headerRow',
    value: String(setup.headerRow),
    'aria-label': 'Header row',
    class: 'narrow',
  });
  const use = act('Use this row', async () => {
    const n = Number(input.value);
    if (!Number.isInteger(n) || n < 0) {
      input.setAttribute('aria-invalid', 'true');
      return;
    }
    await withHeader(setup, n);
  });
  // The add-on is not sure of the header row (or the chosen row holds data): asked here, by the choice.
  const question = setup.headerQuestion ? h('p', { class: 'error small header-question', role: 'alert' }, setup.headerQuestion) : null;
  return h('div', 'form-group header-choice', question, h('label', null, 'Header row ', input, ' ', use), hint(setup.help.headerRow));
}

/** A remembered option as the text of its input ('' when none). */
function str(v: unknown): string {
  return v === undefined || v === null ? '' : String(v);
}

/** Text inputs accept what the user types ("$0.50", "5 %"); the server reads and checks them. */
function text(name: string, value = '', props: Record<string, string> = {}): HTMLInputElement {
  return h('input', { type: 'text', name, value, ...props });
}

type Remembered = NonNullable<NonNullable<ScanSetup['memory']>['options']>;

/**
 * One section of the scan options. Its controls are made when the form is built (named as the request's fields, so the
 * server's problems mark them), its layout when the form is laid out, and `read` gives its part of the request's options.
 */
interface OptionSection {
  controls: Element[];
  view(): Child[];
  read(): Partial<ScanOptionsInput>;
  /** What the section adds to the request beside the options (the column set). */
  request?(): Partial<ScanRequest>;
}

/** The option sections, in the form's order (a new option is a new section here, or a control in one). */
const OPTION_SECTIONS: Array<(setup: ScanSetup, mem: Remembered) => OptionSection> = [
  basicOptions,
  multipackPrepOption,
  multipackOverrideOption,
  historyOption,
  picturesOption,
  allColumnsOption,
  whatToBuyOptions,
];

function form(
  setup: ScanSetup,
  started: (p: ScanProgress) => void,
  withHeader: (setup: ScanSetup, headerRow: number) => Promise<void>,
): HTMLElement {
  // Supplier memory: a list scanned before comes with its options (its roles are already the columns' roles).
  const mem = (setup.memory && setup.memory.options) || {};
  const roles = roleSelects(setup);
  const sections = OPTION_SECTIONS.map((section) => section(setup, mem));
  const anyway = sendAnywayChoice(setup);
  const controls = ([] as Element[]).concat(...sections.map((s) => s.controls));
  const sending: Sending = {
    setup,
    started,
    // The block the form was built from goes back with every request (the user may click elsewhere meanwhile).
    request: () => ({
      sheetName: setup.sheetName,
      rangeA1: setup.rangeA1,
      selection: setup.selection,
      headerRow: setup.headerRow,
      headers: setup.columns.map((c) => c.header),
      roles: roles.map((s) => s.value as ColumnRole),
      options: Object.assign({}, ...sections.map((s) => s.read())) as ScanOptionsInput,
      ...Object.assign({}, ...sections.map((s) => (s.request ? s.request() : {}))),
      ...(anyway.input.checked ? { sendWhenFull: true } : {}),
    }),
    box: live('preview'),
    mark: (s) => markProblems(controls, s),
    showAnyway: anyway.show,
  };
  const send = sendButton(sending);
  return h(
    'form',
    { class: 'newscan', onsubmit: (e: Event) => e.preventDefault() },
    h('h2', null, 'New scan'),
    h('p', 'muted small', sourceLine(setup)),
    setup.memory ? h('p', { class: 'small memory', role: 'status' }, setup.memory.note) : null,
    headerChoice(setup, withHeader),
    h('h3', null, 'Columns'),
    columnsView(setup, roles),
    h('h3', null, 'Options'),
    ...([] as Child[]).concat(...sections.map((s) => s.view())),
    anyway.box,
    btnRow(send.button, previewButton(sending)),
    send.confirm,
    sending.box,
  );
}

/** "Sheet1 · A1:F40 · column names from row 1 · 39 rows": what the form was built from. */
function sourceLine(setup: ScanSetup): string {
  return (
    setup.sheetName +
    ' · ' +
    setup.rangeA1 +
    ' · ' +
    (setup.headerRow ? 'column names from row ' + setup.headerRow : 'no header row') +
    ' · ' +
    plural(setup.rowCount, 'row')
  );
}

/** Each column's role dropdown, starting at the server's suggestion. */
function roleSelects(setup: ScanSetup): HTMLSelectElement[] {
  const roleOptions: Array<[string, string]> = setup.roles.map((r) => [r.role, r.label]);
  const selects = setup.columns.map((c) =>
    select(roleOptions, c.role, { name: 'role-' + c.index, 'aria-label': 'Role of column ' + c.letter }),
  );
  // A role that only one column can play moves: choosing it for one column frees it elsewhere.
  selects.forEach((s, i) =>
    s.addEventListener('change', () => {
      if ((UNIQUE_ROLES as readonly string[]).indexOf(s.value) < 0) return;
      selects.forEach((o, j) => {
        if (j !== i && o.value === s.value) o.value = 'ignore';
      });
    }),
  );
  return selects;
}

/** The columns side by side: letter, header, a sample value and the role dropdown. */
function columnsView(setup: ScanSetup, roles: HTMLSelectElement[]): HTMLElement {
  return h(
    'div',
    'columns',
    ...setup.columns.map((c, i) =>
      h(
        'div',
        'column',
        h('div', 'col-head', h('span', 'letter', c.letter), h('span', 'header', c.header || '(no header)')),
        h('div', { class: 'sample muted small', title: c.sample }, c.sample ? 'e.g. ' + c.sample : '(blank)'),
        roles[i],
      ),
    ),
  );
}

/** Marketplace, scan name, supplier discount and prep cost. */
function basicOptions(setup: ScanSetup, mem: Remembered): OptionSection {
  const market = select(
    setup.marketplaces.map((m) => [m.code, m.code + ' – ' + m.name]),
    String(mem.marketplace ?? setup.defaultMarketplace),
    { name: 'marketplace' },
  );
  const name = text('name', setup.defaultName);
  const discount = text('supplierDiscount', str(mem.supplierDiscount), { inputmode: 'decimal', placeholder: 'e.g. 5' });
  const prep = text('prepCost', str(mem.prepCost), { inputmode: 'decimal', placeholder: 'e.g. 0.50' });
  return {
    controls: [market, name, discount, prep],
    view: () => [
      field('Marketplace', market),
      field('Scan name', name),
      field('Supplier discount (%)', discount, setup.help.supplierDiscount),
      field('Prep cost per unit', prep, setup.help.prepCost),
    ],
    read: () => ({ marketplace: market.value, name: name.value, supplierDiscount: discount.value, prepCost: prep.value }),
  };
}

/** A box of fields shown only while its checkbox is ticked. */
function shownWhenTicked(tick: HTMLInputElement, ...fields: HTMLElement[]): HTMLElement {
  const box = h('div', { class: 'indent', hidden: !tick.checked }, ...fields);
  tick.addEventListener('change', () => (box.hidden = !tick.checked));
  return box;
}

/** Multipack prep cost: the first N units at one cost, the rest at another. */
function multipackPrepOption(setup: ScanSetup, mem: Remembered): OptionSection {
  const mpm = mem.multipackPrepCost || null;
  const mp = checkbox('Multipack prep cost', !!mpm, { name: 'multipackPrepCost.enabled' });
  // Written without ?. (the page's ES2019 would spell each out in full).
  const mpv: Partial<NonNullable<typeof mpm>> = mpm || {};
  const firstN = text('multipackPrepCost.firstN', str(mpv.firstN), { inputmode: 'numeric' });
  const first = text('multipackPrepCost.costForFirstN', str(mpv.costForFirstN), { inputmode: 'decimal' });
  const rest = text('multipackPrepCost.costForRest', str(mpv.costForRest), { inputmode: 'decimal' });
  const box = shownWhenTicked(
    mp.input,
    field('First N units', firstN),
    field('Cost for each of the first N', first),
    field('Cost for each of the rest', rest),
  );
  return {
    controls: [mp.input, firstN, first, rest],
    view: () => [h('div', 'form-group', mp.row, hint(setup.help.multipackPrepCost), box)],
    read: () => ({
      multipackPrepCost: mp.input.checked
        ? { enabled: true, firstN: firstN.value, costForFirstN: first.value, costForRest: rest.value }
        : null,
    }),
  };
}

/** Multipack override: one pack quantity for every row. */
function multipackOverrideOption(setup: ScanSetup, mem: Remembered): OptionSection {
  const ov = checkbox('Multipack override', mem.multipackOverride === true, { name: 'multipackOverride' });
  const qty = text('multipackOverrideQuantity', str(mem.multipackOverrideQuantity), { inputmode: 'numeric' });
  const box = shownWhenTicked(ov.input, field('Pack quantity for every row', qty));
  return {
    controls: [ov.input, qty],
    view: () => [h('div', 'form-group', ov.row, hint(setup.help.multipackOverride), box)],
    read: () => ({ multipackOverride: ov.input.checked, multipackOverrideQuantity: ov.input.checked ? qty.value : null }),
  };
}

/** Pull historical data. */
function historyOption(setup: ScanSetup, mem: Remembered): OptionSection {
  const hist = checkbox('Pull historical data', mem.pullHistoricalData === true, { name: 'pullHistoricalData' });
  return {
    controls: [hist.input],
    view: () => [h('div', 'form-group', hist.row, hint(setup.help.pullHistoricalData))],
    read: () => ({ pullHistoricalData: hist.input.checked }),
  };
}

/** Issue 36: a picture column beside the title (on by default); the add-on's own choice, kept in the scan's record. */
function picturesOption(setup: ScanSetup, mem: Remembered): OptionSection {
  const pics = checkbox('Pictures', mem.pictures !== false, { name: 'pictures' });
  return {
    controls: [pics.input],
    view: () => [h('div', 'form-group', pics.row, hint(setup.help.pictures))],
    read: () => ({ pictures: pics.input.checked }),
  };
}

/**
 * Issue 36: the essential columns (default) or every documented product field; the room check counts the choice.
 * A list scanned before starts with its last choice (supplier memory), as its re-scans send it.
 */
function allColumnsOption(setup: ScanSetup): OptionSection {
  const all = checkbox('All columns', !!setup.memory && setup.memory.columns === 'all', { name: 'allColumns' });
  return {
    controls: [all.input],
    view: () => [h('div', 'form-group', all.row, hint(setup.help.allColumns))],
    read: () => ({}),
    request: () => (all.input.checked ? { columns: 'all' as const } : {}),
  };
}

/** What to buy (issue 24): the add-on's own figures, never sent to the service. Blank = the server's default (the placeholder). */
function whatToBuyOptions(_setup: ScanSetup, mem: Remembered): OptionSection {
  const buy = (
    [
      ['monthsOfCover', 'Months of cover', '2'],
      ['targetRoi', 'Target ROI (%)', '30'],
      ['maxDiscount', 'Max discount to ask (%)', '20'],
    ] as const
  ).map(([n, label, d]) => [n, label, text(n, str(mem[n]), { inputmode: 'decimal', placeholder: d })] as const);
  const rule = select(
    [
      ['fba-weighted', 'FBM ½ if FBA Buy Box'],
      ['even', 'All offers count 1'],
    ],
    mem.shareRule === 'even' ? 'even' : 'fba-weighted',
    { name: 'shareRule' },
  );
  return {
    controls: [rule, ...buy.map((b) => b[2])],
    view: () => [
      // Opened when it holds remembered choices, so the seller sees them.
      h(
        'details',
        { open: buy.some((b) => b[2].value !== '') || rule.value !== 'fba-weighted' },
        h('summary', null, 'What to buy'),
        field('Sales shared among offers', rule),
        ...buy.map((b) => field(b[1], b[2])),
      ),
    ],
    read: () => ({ shareRule: rule.value, ...Object.fromEntries(buy.map((b) => [b[0], b[2].value])) }),
  };
}

/** Shown only when the results will not fit in this spreadsheet (the preview's room, or Send refused for it). */
function sendAnywayChoice(setup: ScanSetup): { box: HTMLElement; input: HTMLInputElement; show(show: boolean): void } {
  const anyway = checkbox(setup.help.sendAnyway, false, {
    name: 'sendWhenFull',
  });
  const box = h('div', { class: 'form-group', hidden: true }, anyway.row);
  const show = (on: boolean) => {
    box.hidden = !on;
    if (!on) anyway.input.checked = false;
  };
  return { box, input: anyway.input, show };
}

/** The server's problems mark the controls they name (aria-invalid); the others are cleared. */
function markProblems(controls: Element[], s: PreviewSummary): void {
  for (const el of controls) el.removeAttribute('aria-invalid');
  for (const pr of s.problems) for (const el of controls) if (el.getAttribute('name') === pr.field) el.setAttribute('aria-invalid', 'true');
}

/** What Preview and Send share: the request as the form stands, the box their answers go to, and what a started scan does. */
interface Sending {
  setup: ScanSetup;
  request(): ScanRequest;
  box: HTMLElement;
  mark(s: PreviewSummary): void;
  showAnyway(show: boolean): void;
  started(p: ScanProgress): void;
}

/** A missing or refused key is asked for HERE, so the columns and options chosen are not lost. */
function keyOrFail(sending: Sending, e: unknown): void {
  const box = sending.box;
  if (e instanceof ServerError && e.openSettings)
    fill(
      box,
      keyPanel(e.message, sending.setup.help.key, () => fill(box, h('p', 'ok', 'Key saved. Press Send (or Preview) again.'))),
    );
  else {
    fill(box);
    fail(e);
  }
}

function previewButton(sending: Sending): HTMLButtonElement {
  return act('Preview', async () => {
    fill(sending.box, muted('Checking the rows…'));
    try {
      const s = await call('previewScan', sending.request());
      sending.mark(s);
      sending.showAnyway(!!s.room && !s.room.fits);
      fill(sending.box, ...previewView(s));
    } catch (e) {
      keyOrFail(sending, e);
    }
  });
}

/** Send, and once sent "Send again…", which asks first (in `confirm`): another click starts another (paid) scan of the same rows. */
function sendButton(sending: Sending): { button: HTMLButtonElement; confirm: HTMLElement } {
  let sent = false;
  const confirm = h('div', { class: 'confirm', hidden: true });
  const btn = button(
    'Send',
    () => {
      if (!sent) return send();
      const yes = button(
        'Send again',
        () => {
          confirm.hidden = true;
          void send();
        },
        'danger',
      );
      const no = button('Cancel', () => (confirm.hidden = true));
      fill(confirm, sending.setup.help.sendAgain, btnRow(yes, no));
      confirm.hidden = false;
    },
    'action',
  );
  const send = () =>
    busy(btn, async () => {
      if (await startScan(sending)) {
        // No longer the main action, and it asks first.
        sent = true;
        btn.className = '';
        btn.textContent = 'Send again…';
      }
    });
  return { button: btn, confirm };
}

/** Starts the scan and shows what was sent (true), or why not (false). */
async function startScan(sending: Sending): Promise<boolean> {
  fill(sending.box, muted('Sending the rows…'));
  try {
    const r = await call('startScan', sending.request());
    sending.mark(r.preview);
    fill(
      sending.box,
      h('p', 'ok', 'Sent ' + plural(r.preview.counts.send, 'row') + ' as scan "' + r.progress.name + '". Its progress is shown above.'),
      // Google refused the hourly trigger: this scan is imported only while the sidebar is open.
      r.notice ? h('p', { class: 'warn', role: 'status' }, r.notice) : null,
      ...previewView(r.preview, true),
    );
    sending.started(r.progress);
    return true;
  } catch (e) {
    if (e instanceof ServerError && e.needsRoom) sending.showAnyway(true);
    keyOrFail(sending, e);
    return false;
  }
}

/**
 * Asks for the API key in place: what it is, where to find it (`about`, from the server), a field and Save. The key goes to
 * saveSettings (user properties) and the field is emptied; nothing else on the form changes.
 */
export function keyPanel(why: string, about: string, saved: () => void): HTMLElement {
  const key = h('input', {
    type: 'password',
    autocomplete: 'off',
    spellcheck: 'false',
    name: 'apiKey',
    placeholder: 'Paste your API key',
    'aria-label': 'API key',
  });
  const save = act(
    'Save key',
    async () => {
      if (!key.value.trim()) return key.focus();
      try {
        await call('saveSettings', { apiKey: key.value, check: true });
        key.value = '';
        saved();
      } catch (e) {
        // Shown here (a refused key is not saved): saving never asks to open Settings.
        fail(e);
      }
    },
    'action',
  );
  return h(
    'div',
    'keypanel',
    h('p', 'error', why),
    h('p', 'small', about),
    key,
    btnRow(
      save,
      button('All settings', () => show('settings')),
    ),
  );
}

/** A list with its "and N more" line. */
function list(title: string, items: Array<HTMLElement>, more: number, open: boolean): HTMLElement | null {
  if (!items.length) return null;
  return h(
    'details',
    { open },
    h('summary', null, title),
    h('ul', null, ...items, more > 0 ? h('li', 'muted', 'and ' + num(more) + ' more') : null),
  );
}

/** Skip reasons for counts: [one, many]. */
const SKIP_REASON: Record<string, [string, string]> = {
  'blank-row': ['blank row', 'blank rows'],
  'no-identifier': ['row without identifier', 'rows without identifier'],
  'invalid-identifier': ['invalid identifier', 'invalid identifiers'],
  'ambiguous-identifier': ['unclear identifier', 'unclear identifiers'],
  'scientific-notation': ['identifier in scientific notation (digits lost)', 'identifiers in scientific notation (digits lost)'],
  'unusable-cost': ['unusable cost', 'unusable costs'],
};

export function previewView(s: PreviewSummary, sent = false): HTMLElement[] {
  const c = s.counts;
  const out: HTMLElement[] = [];
  if (!sent)
    out.push(h('p', { class: s.ok ? 'ok' : 'error' }, s.ok ? plural(c.send, 'row') + ' will be sent.' : 'Nothing can be sent yet.'));
  if (s.problems.length) out.push(h('ul', 'problems error', ...s.problems.map((p) => h('li', null, p.message))));
  // Before anything is paid for: the results will not fit in this spreadsheet, with the numbers and what fits.
  if (!sent && s.room && !s.room.fits && s.room.message)
    out.push(h('div', 'room error', ...s.room.message.split('\n').map((line) => h('p', null, line))));
  // A missing role: the rows were not read, so there are no counts to show yet.
  if (!s.ok && c.dataRows === 0 && s.problems.some((p) => p.field === 'roles')) return out;
  const reasons = Object.keys(c.bySkipReason).map((k) => {
    const n = c.bySkipReason[k as keyof typeof c.bySkipReason] || 0;
    const words = SKIP_REASON[k] || [k, k];
    return num(n) + ' ' + words[n === 1 ? 0 : 1];
  });
  out.push(
    h(
      'p',
      'small counts',
      plural(c.dataRows, 'data row') +
        ': ' +
        num(c.send) +
        ' to send, ' +
        num(c.skipped) +
        ' skipped' +
        (reasons.length ? ' (' + reasons.join(', ') + ')' : '') +
        ', ' +
        num(c.repairedRows) +
        ' repaired, ' +
        plural(c.duplicateRows, 'duplicate row') +
        ', ' +
        plural(c.warnings, 'warning') +
        '.',
    ),
  );
  return out.concat(detailLists(s, sent));
}

/** The rows behind the counts: skipped (open before sending), repaired, warned about, duplicated. */
function detailLists(s: PreviewSummary, sent: boolean): HTMLElement[] {
  const lists = [
    list(
      'Skipped rows',
      s.skipped.map((r) =>
        h(
          'li',
          { 'data-row': r.sheetRow },
          h('b', null, 'Row ' + r.sheetRow),
          ': ' + (r.message.replace(/^Row \d+:\s*/, '') || (SKIP_REASON[r.reason] || [r.reason])[0]),
        ),
      ),
      s.notListed.skipped,
      !sent,
    ),
    list(
      'Repaired cells',
      s.repaired.map((r) => h('li', { 'data-row': r.sheetRow }, h('b', null, r.column + r.sheetRow), ': ' + r.before + ' → ' + r.after)),
      s.notListed.repaired,
      false,
    ),
    list(
      'Warnings',
      s.warnings.map((w) =>
        h('li', { 'data-row': w.sheetRow }, h('b', null, w.column + w.sheetRow), ': ' + w.message.replace(/^Row \d+:\s*/, '')),
      ),
      s.notListed.warnings,
      false,
    ),
    list(
      'Duplicates',
      s.duplicates.map((d) => h('li', null, h('b', null, d.identifier), ' on rows ' + d.sheetRows.join(', '))),
      s.notListed.duplicates,
      false,
    ),
  ];
  const out: HTMLElement[] = [];
  for (const l of lists) if (l) out.push(l);
  return out;
}

register('scan', render);
