/**
 * The playground page: the runtime's workbook in a Tabulator grid (spreadsheet mode: A, B, C
 * columns, numbered rows, range selection, cell editing), the add-on's menu as its onOpen declared
 * it, its sidebar in a 300 px frame, Sheets-like toasts and dialogs. The server (server.ts) holds
 * the truth: every edit, selection and menu click goes to it, and the page redraws from its answer.
 */
import { TabulatorFull as Tabulator } from 'tabulator-tables';
import type { CellMeta, CellPicture, SheetView, Sparkline } from './view';

type UiEvent =
  | { kind: 'toast'; message: string; title: string; timeoutSeconds: number }
  | { kind: 'alert' | 'prompt'; title: string; prompt: string; answer: string }
  | { kind: 'sidebar' | 'dialog'; title: string }
  | { kind: 'menu'; name: string; items: Array<{ caption: string; functionName: string } | null> };
interface State {
  document: string;
  sheets: string[];
  activeSheet: string;
  activeRange: { r1: number; c1: number; r2: number; c2: number } | null;
  sheet: SheetView;
  menu: { name: string; items: Array<{ caption: string; functionName: string } | null> } | null;
  addOnActive: boolean;
  clock: string;
  timeZone: string;
  nextTrigger: string | null;
  sidebar: { n: number; title: string } | null;
  cursor: number;
  events: UiEvent[];
  error?: string | null;
  message?: string;
  fired?: Array<{ handler: string; ok: boolean; error?: string }>;
}

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

let cursor = 0;
let current: State | null = null;
let shownSheet = '';
let shownShape = '';
let sidebarN = 0;
let busy = 0;
/** Set while the page itself moves the selection (not a person): not sent back. */
let settingRange = false;

function letters(col: number): string {
  let s = '';
  for (let n = col; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}
function colNumber(l: string): number {
  let n = 0;
  for (const ch of l) n = n * 26 + ch.charCodeAt(0) - 64;
  return n;
}
const a1 = (r: number, c: number) => letters(c) + r;

function setStatus(text: string): void {
  $('status').textContent = text;
}

/** A selection not yet sent (sent shortly after the mouse stops, or before any other call). */
let pendingSelect: { sheet: string; r1: number; c1: number; r2: number; c2: number } | null = null;
let selectTimer: number | undefined;

/** Sends the pending selection, so a menu item or sidebar call that follows sees it (as in Sheets). */
async function flushSelection(): Promise<void> {
  window.clearTimeout(selectTimer);
  const sel = pendingSelect;
  pendingSelect = null;
  if (sel) await fetch('/api/select', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(sel) });
}
(window as unknown as { __playgroundBeforeCall: () => Promise<void> }).__playgroundBeforeCall = flushSelection;

async function call(path: string, body?: unknown): Promise<State> {
  await flushSelection();
  busy++;
  setStatus('Working…');
  try {
    const res = await fetch(
      path,
      body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    );
    const data = await res.json();
    if (!res.ok && data && data.error) throw new Error(data.error);
    return data as State;
  } finally {
    if (--busy === 0) setStatus('');
  }
}

// ---- the grid -------------------------------------------------------------------------------

function metaOf(row: number, field: string): CellMeta | undefined {
  return current?.sheet.cells[`${row},${colNumber(field)}`];
}

function formatter(cell: any): string {
  const row = cell.getRow().getData()._id as number;
  const field = cell.getField() as string;
  const el = cell.getElement() as HTMLElement;
  const meta = metaOf(row, field);
  const value = cell.getValue();
  const text = value === undefined || value === null ? '' : String(value);
  // A row given a height (the result tab's picture rows): its cells ask for it (a minimum, which
  // Tabulator's own cell heights do not clear) and Tabulator makes the whole row that high.
  const height = current?.sheet.heights[row];
  el.style.minHeight = height ? `${height}px` : '';
  // Its text at the bottom, as Sheets aligns by default (a picture fills the cell); 20 px: one line and the bottom padding.
  el.style.paddingTop = height && height > 22 && !meta?.picture ? `${height - 20}px` : '';
  el.style.fontWeight = meta?.bold ? 'bold' : '';
  el.style.background = meta?.bg ?? '';
  el.style.color = meta?.color ?? '';
  el.classList.toggle('err', Boolean(meta?.error));
  el.classList.toggle('overflow', Boolean(meta?.overflow));
  // Sheets aligns numbers right by default; a cell's own alignment wins.
  const numeric = text !== '' && !Number.isNaN(Number(text.replace(/[$€£,%\s]/g, ''))) && /\d/.test(text);
  el.style.textAlign = meta?.align ?? (numeric ? 'right' : '');
  el.title = meta?.error ?? meta?.note ?? '';
  if (meta?.picture) return pictureHtml(meta.picture);
  return escapeHtml(text);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** An IMAGE or in-cell image as an <img> (its alt text when the page does not load the link); a SPARKLINE as a small SVG. */
function pictureHtml(p: CellPicture): string {
  if (p.kind === 'image')
    return p.src
      ? `<img class="cell-picture" src="${escapeHtml(p.src)}" alt="${escapeHtml(p.alt)}">`
      : `<span class="cell-picture-missing">${escapeHtml(p.alt)}</span>`;
  return sparklineSvg(p);
}

/** A sparkline in a 100 x 20 box, scaled to the cell (numbers only reach the markup). */
function sparklineSvg(s: Sparkline): string {
  const colour = escapeHtml(s.color ?? (s.chart === 'line' ? '#3366cc' : '#4285f4'));
  const v = s.values.filter((x) => Number.isFinite(x));
  const open = `<svg class="sparkline" data-chart="${escapeHtml(s.chart)}" viewBox="0 0 100 20" preserveAspectRatio="none" role="img" aria-label="${escapeHtml(s.chart)} chart of ${v.length} values">`;
  if (v.length === 0) return `${open}</svg>`;
  const hi = Math.max(s.max ?? -Infinity, ...v, 0);
  const lo = Math.min(...v, 0);
  const span = hi - lo || 1;
  const n = (x: number) => Math.round(x * 100) / 100;
  if (s.chart === 'line') {
    const low = Math.min(...v);
    const high = Math.max(...v);
    const points = v.map(
      (x, i) => `${n(v.length === 1 ? 50 : (i * 100) / (v.length - 1))},${n(19 - ((x - low) / (high - low || 1)) * 18)}`,
    );
    return `${open}<polyline fill="none" stroke="${colour}" stroke-width="${s.lineWidth ?? 1.5}" vector-effect="non-scaling-stroke" points="${points.join(' ')}"/></svg>`;
  }
  if (s.chart === 'column') {
    const w = 100 / v.length;
    const zero = 20 - ((0 - lo) / span) * 20;
    const bars = v.map((x, i) => {
      const y = 20 - ((x - lo) / span) * 20;
      return `<rect x="${n(i * w + w * 0.1)}" y="${n(Math.min(y, zero))}" width="${n(w * 0.8)}" height="${n(Math.abs(zero - y))}"/>`;
    });
    return `${open}<g fill="${colour}">${bars.join('')}</g></svg>`;
  }
  // bar: the values side by side along one horizontal bar, as Sheets stacks them, against max.
  let x0 = 0;
  const total =
    Math.max(
      s.max ?? 0,
      v.reduce((a, x) => a + Math.max(x, 0), 0),
    ) || 1;
  const bars = v.map((x) => {
    const w = (Math.max(x, 0) / total) * 100;
    const r = `<rect x="${n(x0)}" y="2" width="${n(w)}" height="16"/>`;
    x0 += w;
    return r;
  });
  return `${open}<g fill="${colour}">${bars.join('')}</g></svg>`;
}

/** The editor: starts from what Sheets' formula bar shows (the formula, or the typed form). */
function editor(cell: any, onRendered: (f: () => void) => void, _success: (v: unknown) => void, cancel: () => void): HTMLElement {
  const row = cell.getRow().getData()._id as number;
  const field = cell.getField() as string;
  const meta = metaOf(row, field);
  const input = document.createElement('input');
  input.setAttribute('aria-label', `Edit ${field}${row}`);
  input.style.width = '100%';
  input.style.boxSizing = 'border-box';
  input.value = meta?.input ?? meta?.formula ?? String(cell.getValue() ?? '');
  let done = false;
  editing = true;
  const close = () => {
    done = true;
    cancel();
    editing = false;
    if (drawDeferred && current) drawGrid(current);
  };
  const commit = () => {
    if (done) return;
    close();
    void typeInto(row, colNumber(field), input.value);
  };
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') commit();
    else if (e.key === 'Escape') close();
  });
  input.addEventListener('blur', commit);
  onRendered(() => input.focus());
  return input;
}

const table = new Tabulator('#grid', {
  height: '100%',
  spreadsheet: true,
  spreadsheetRows: 60,
  spreadsheetColumns: 26,
  spreadsheetData: [[]],
  spreadsheetColumnDefinition: { editor, formatter, width: 110 },
  rowHeader: { field: '_id', hozAlign: 'center', headerSort: false, frozen: true, width: 48, resizable: false },
  selectableRange: 1,
  selectableRangeColumns: true,
  selectableRangeRows: true,
  editTriggerEvent: 'dblclick',
  renderVertical: 'virtual',
});

let built = false;
table.on('tableBuilt', () => {
  built = true;
  if (current) drawGrid(current, true);
});

/** The sheet view and selection last drawn: a state that changes neither redraws nothing. */
let shownView = '';
let shownRange = '';
/**
 * A cell editor is open: a state that arrives meanwhile (a sidebar call's, a trigger's) is drawn when
 * it closes, not under it, because a redraw would drop what the person is typing. Sheets, too, keeps
 * an edit open while the document changes.
 */
let editing = false;
let drawDeferred = false;

function drawGrid(s: State, force = false): void {
  if (!built) return;
  drawDeferred = editing && !force;
  if (drawDeferred) return;
  const v = s.sheet;
  const shape = `${v.name}|${v.rows}|${v.cols}`;
  const view = JSON.stringify(v);
  const range = JSON.stringify(s.activeRange);
  let drawn = true;
  if (force || shape !== shownShape || v.name !== shownSheet) {
    const data = v.display.map((r) => r.slice());
    table.setSheets([{ title: v.name, key: 'sheet', rows: v.rows, columns: v.cols, data }]);
    // Each setWidth re-renders the columns: once for all of them instead.
    table.blockRedraw();
    try {
      for (const [col, w] of Object.entries(v.widths)) table.getColumn(col)?.setWidth(Math.max(40, Math.min(w, 400)));
    } finally {
      table.restoreRedraw();
    }
    shownShape = shape;
    shownSheet = v.name;
  } else if (view !== shownView) {
    const data = v.display.map((r) => r.slice());
    table.setSheetData('sheet', data.length ? data : [[]]);
  } else drawn = false;
  shownView = view;
  // A redraw clears the grid's selection; otherwise it already shows this one (the person's, sent
  // before every call, or the add-on's drawn when it came).
  if (s.activeRange && (drawn || range !== shownRange)) selectRange(s.activeRange);
  shownRange = range;
}

/** Shows the runtime's selection in the grid (e.g. after the sidebar selected a row). */
function selectRange(r: { r1: number; c1: number; r2: number; c2: number }): void {
  try {
    const rows = table.getRows();
    const start = rows[r.r1 - 1]?.getCell(letters(r.c1));
    const end = rows[Math.min(r.r2, rows.length) - 1]?.getCell(letters(Math.min(r.c2, current?.sheet.cols ?? r.c2)));
    if (!start || !end) return;
    settingRange = true;
    table.addRange(start, end);
    showCell(r);
  } catch {
    // a selection the grid cannot show (rows not drawn yet) is left to the person
  } finally {
    settingRange = false;
  }
}

function rangeOf(range: any): { r1: number; c1: number; r2: number; c2: number } {
  // Edges are 0-based indexes of the rows and of the columns counting the row-number column (0), so
  // a column's edge is its number; a whole row selected from its number starts at column 1.
  return {
    r1: range.getTopEdge() + 1,
    r2: range.getBottomEdge() + 1,
    c1: Math.max(1, range.getLeftEdge()),
    c2: Math.max(1, range.getRightEdge()),
  };
}

function showCell(r: { r1: number; c1: number; r2: number; c2: number }): void {
  const single = r.r1 === r.r2 && r.c1 === r.c2;
  $<HTMLInputElement>('name-box').value = single ? a1(r.r1, r.c1) : `${a1(r.r1, r.c1)}:${a1(r.r2, r.c2)}`;
  const meta = current?.sheet.cells[`${r.r1},${r.c1}`];
  const shown = current?.sheet.display[r.r1 - 1]?.[r.c1 - 1] ?? '';
  $<HTMLInputElement>('formula-input').value = meta?.input ?? meta?.formula ?? shown;
  $('cell-format').textContent = meta?.format ? `Format: ${meta.format}` : '';
}

let lastRange: { r1: number; c1: number; r2: number; c2: number } | null = null;
table.on('rangeChanged', (range: any) => {
  if (settingRange || !current) return;
  const r = rangeOf(range);
  lastRange = r;
  showCell(r);
  window.clearTimeout(selectTimer);
  pendingSelect = { sheet: current.sheet.name, ...r };
  selectTimer = window.setTimeout(() => void flushSelection(), 120);
});

async function typeInto(row: number, col: number, input: string): Promise<void> {
  if (!current) return;
  try {
    apply(await call(`/api/edit?since=${cursor}`, { sheet: current.sheet.name, row, col, input }));
  } catch (e) {
    showToast('Edit refused', (e as Error).message, 10);
  }
}

// ---- state, tabs, menu ----------------------------------------------------------------------

function apply(s: State): void {
  const first = current === null;
  // Another sheet shown: the formula bar shows its selection (the runtime's), not the last sheet's.
  const switched = current?.sheet.name !== s.sheet.name;
  if (switched) lastRange = null;
  current = s;
  cursor = s.cursor;
  $('doc-name').textContent = s.document;
  document.title = `${s.document} — local playground`;
  drawTabs(s);
  drawMenu(s);
  drawGrid(s, first);
  const clock = new Date(s.clock);
  $('clock').textContent =
    `Virtual clock ${clock.toISOString().replace('T', ' ').slice(0, 16)} UTC` +
    (s.nextTrigger ? ` · next hourly trigger ${s.nextTrigger.replace('T', ' ').slice(0, 16)} UTC` : ' · no hourly trigger installed');
  if (s.sidebar && s.sidebar.n !== sidebarN) {
    sidebarN = s.sidebar.n;
    $('sidebar-title').textContent = s.sidebar.title;
    $<HTMLIFrameElement>('sidebar-frame').src = `/api/sidebar?n=${sidebarN}`;
    $('sidebar').hidden = false;
  }
  // Toasts sit at the bottom right of the grid, clear of the sidebar.
  document.body.classList.toggle('with-sidebar', !$('sidebar').hidden);
  for (const e of s.events) if (e.kind === 'toast') showToast(e.title, e.message, e.timeoutSeconds);
  if (s.error) showToast('Error', s.error, 10);
  if (s.message) showToast('', s.message, 8);
  if (lastRange === null) showCell(s.activeRange ?? { r1: 1, c1: 1, r2: 1, c2: 1 });
}

let shownTabs = '';
function drawTabs(s: State): void {
  const key = JSON.stringify([s.sheets, s.sheet.name]);
  if (key === shownTabs) return;
  shownTabs = key;
  const tabs = $('tabs');
  tabs.replaceChildren(
    ...s.sheets.map((name) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.setAttribute('role', 'tab');
      b.setAttribute('aria-selected', String(name === s.sheet.name));
      b.textContent = name;
      b.addEventListener('click', async () => {
        lastRange = null;
        apply(await call(`/api/activate?since=${cursor}`, { sheet: name }));
      });
      return b;
    }),
  );
}

let shownMenu = '';
function drawMenu(s: State): void {
  const key = JSON.stringify(s.menu);
  if (key === shownMenu) return;
  shownMenu = key;
  const menu = $('ext-menu');
  const items: HTMLElement[] = [];
  const heading = document.createElement('div');
  heading.className = 'heading';
  heading.textContent = s.menu ? s.menu.name : 'No add-on menu (onOpen added none)';
  items.push(heading);
  for (const item of s.menu?.items ?? []) {
    if (!item) {
      items.push(document.createElement('hr'));
      continue;
    }
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'item';
    b.setAttribute('role', 'menuitem');
    b.textContent = item.caption;
    b.addEventListener('click', async () => {
      closeMenus();
      apply(await call(`/api/menu?since=${cursor}`, { fn: item.functionName }));
    });
    items.push(b);
  }
  menu.replaceChildren(...items);
}

function closeMenus(): void {
  for (const id of ['file', 'ext']) {
    $(`${id}-menu`).hidden = true;
    $(`${id}-menu-button`).setAttribute('aria-expanded', 'false');
  }
}
for (const id of ['file', 'ext']) {
  $(`${id}-menu-button`).addEventListener('click', (e) => {
    e.stopPropagation();
    const open = $(`${id}-menu`).hidden;
    closeMenus();
    $(`${id}-menu`).hidden = !open;
    $(`${id}-menu-button`).setAttribute('aria-expanded', String(open));
  });
}
document.addEventListener('click', closeMenus);

// ---- toasts and dialogs, as Sheets shows them -----------------------------------------------

let toastTimer: number | undefined;
function showToast(title: string, message: string, seconds: number): void {
  // One toast at a time, the newest replacing the last; a negative timeout stays until closed.
  $('toast-title').textContent = title;
  $('toast-message').textContent = message;
  $('toast').hidden = false;
  window.clearTimeout(toastTimer);
  if (seconds >= 0) toastTimer = window.setTimeout(() => ($('toast').hidden = true), (seconds || 5) * 1000);
}
$('toast-close').addEventListener('click', () => ($('toast').hidden = true));

const BUTTONS: Record<string, string[]> = {
  OK: ['OK'],
  OK_CANCEL: ['OK', 'CANCEL'],
  YES_NO: ['YES', 'NO'],
  YES_NO_CANCEL: ['YES', 'NO', 'CANCEL'],
};
const LABEL: Record<string, string> = { OK: 'OK', CANCEL: 'Cancel', YES: 'Yes', NO: 'No' };
let asking = false;

/**
 * Waits for the add-on's dialogs: a long poll (the server holds the request until a dialog waits),
 * so an idle page sends a request every 25 s instead of polling; after a dialog, waits for its answer.
 */
async function waitForQuestions(): Promise<void> {
  for (;;) {
    try {
      const res = await fetch('/api/question?wait=1');
      const { question } = await res.json();
      if (question) await showQuestion(question);
    } catch {
      // the server has stopped (or is restarting): try again shortly
      await new Promise((r) => window.setTimeout(r, 1000));
    }
  }
}

/** Shows the dialog; resolves once the person's answer has been posted. */
function showQuestion(q: { kind: string; title: string; prompt: string; buttons: string }): Promise<void> {
  asking = true;
  let answered: () => void = () => {};
  const done = new Promise<void>((r) => (answered = r));
  $('dialog-title').textContent = q.title;
  $('dialog-prompt').textContent = q.prompt;
  const text = $<HTMLInputElement>('dialog-text');
  text.value = '';
  text.hidden = q.kind !== 'prompt';
  const answer = async (button: string) => {
    $('dialog').hidden = true;
    await fetch('/api/answer', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ button, text: text.value }),
    }).catch(() => {});
    asking = false;
    answered();
  };
  $('dialog-buttons').replaceChildren(
    ...(BUTTONS[q.buttons] ?? ['OK']).map((name) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = LABEL[name] ?? name;
      b.addEventListener('click', () => void answer(name));
      return b;
    }),
  );
  $('dialog').hidden = false;
  (q.kind === 'prompt' ? text : ($('dialog-buttons').firstElementChild as HTMLElement)).focus();
  return done;
}

// ---- toolbar, formula bar, files, sidebar ---------------------------------------------------

$('run-trigger').addEventListener('click', async () => {
  const s = await call(`/api/trigger?since=${cursor}`, {});
  apply(s);
  if (s.fired && s.fired.length) setStatus(s.fired.map((f) => `${f.handler}: ${f.ok ? 'ran' : `failed (${f.error})`}`).join('; '));
});
$('recalculate').addEventListener('click', async () => apply(await call(`/api/recalculate?since=${cursor}`, {})));

$('formula-input').addEventListener('keydown', (e) => {
  if (e.key !== 'Enter' || !lastRange) return;
  void typeInto(lastRange.r1, lastRange.c1, $<HTMLInputElement>('formula-input').value);
});
$('name-box').addEventListener('keydown', (e) => {
  if (e.key !== 'Enter' || !current) return;
  const m = /^([A-Z]+)(\d+)(?::([A-Z]+)(\d+))?$/i.exec($<HTMLInputElement>('name-box').value.trim());
  if (!m) return;
  const r = { r1: Number(m[2]), c1: colNumber(m[1].toUpperCase()), r2: Number(m[4] ?? m[2]), c2: colNumber((m[3] ?? m[1]).toUpperCase()) };
  lastRange = r;
  selectRange(r);
  pendingSelect = { sheet: current.sheet.name, ...r };
  void flushSelection();
});

$('open-file').addEventListener('click', () => $<HTMLInputElement>('file-input').click());
$('file-input').addEventListener('change', async () => {
  const file = $<HTMLInputElement>('file-input').files?.[0];
  if (!file) return;
  const bytes = new Uint8Array(await file.arrayBuffer());
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  try {
    const s = await call('/api/open', { name: file.name, data: btoa(bin) });
    sidebarN = 0;
    $('sidebar').hidden = true;
    lastRange = null;
    current = null;
    apply(s);
  } catch (e) {
    showToast('Could not open the file', (e as Error).message, 10);
  }
  $<HTMLInputElement>('file-input').value = '';
});

// A page closed while a dialog waits closes the dialog, so the add-on's execution goes on.
window.addEventListener('pagehide', () => {
  if (asking) navigator.sendBeacon('/api/answer', JSON.stringify({ button: 'CLOSE', text: '' }));
});

$('sidebar-close').addEventListener('click', () => {
  $('sidebar').hidden = true;
  document.body.classList.remove('with-sidebar');
});

// The sidebar frame calls this after each google.script.run call: show what the call changed.
let afterTimer: number | undefined;
(window as unknown as { __playgroundAfterCall: () => void }).__playgroundAfterCall = () => {
  window.clearTimeout(afterTimer);
  afterTimer = window.setTimeout(async () => apply(await call(`/api/state?since=${cursor}`)), 50);
};

void (async () => {
  apply(await call('/api/state?since=0'));
  void waitForQuestions();
})();
