/**
 * Custom-function formulas: `=NAME(arg, ...)` where NAME is a custom function of the loaded script.
 * Evaluated when written, when a referenced cell changes and on recalculate(); array results spill
 * into neighbouring cells like in Sheets. Built-in formulas are computed by the engine in
 * builtin.ts, kept in step here: every recalculation pushes what changed into it and carries its new
 * results on to the custom functions that read them.
 */
import { cellA1, columnLetters, parseA1, quoteSheetName } from './a1';
import { type Arg, Area, Cell, CustomFormula, SheetModel, WorkbookCore, isEmptyCell, liveArea } from './model';
import { DATE_TIME_FORMAT, dateToSerial, isDate, isDateFormat, truncate15 } from './values';
import { isAutomatic } from './format';
import { rebuildBuiltin, shiftBuiltin, syncBuiltin } from './builtin';

/** Splits the argument list at top-level commas; null when it holds nested calls or operators we do not evaluate. */
function splitArgs(s: string): string[] | null {
  const out: string[] = [];
  let cur = '';
  let q: string | null = null;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (q) {
      cur += ch;
      if (ch === q) {
        if (s[i + 1] === q) {
          cur += s[++i];
        } else q = null;
      }
      continue;
    }
    if (ch === '"' || ch === "'") {
      q = ch;
      cur += ch;
    } else if (ch === ',') {
      out.push(cur);
      cur = '';
    } else if (ch === '(' || ch === ')') return null;
    else cur += ch;
  }
  if (q) return null;
  out.push(cur);
  return out;
}

function parseArg(raw: string): Arg | null {
  const text = raw.trim();
  const s = text;
  if (s === '') return { text, kind: 'lit', value: '' };
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return { text, kind: 'lit', value: Number(s) };
  if (/^".*"$/s.test(s)) return { text, kind: 'lit', value: s.slice(1, -1).replace(/""/g, '"') };
  if (/^true$/i.test(s)) return { text, kind: 'lit', value: true };
  if (/^false$/i.test(s)) return { text, kind: 'lit', value: false };
  const ref = parseA1(s);
  if (ref) return { text, kind: 'ref', ...ref, single: !s.includes(':') };
  if (/^[A-Za-z_][A-Za-z0-9_.]*$/.test(s)) return { text, kind: 'name', name: s };
  return null;
}

/** Parses `=NAME(args)`; null for anything else. */
export function parseCall(formula: string): { name: string; args: Arg[] } | null {
  const m = /^=\s*([A-Za-z_][A-Za-z0-9_]*)\s*\(([\s\S]*)\)\s*$/.exec(formula);
  if (!m) return null;
  const parts = m[2].trim() === '' ? [] : splitArgs(m[2]);
  if (!parts) return null;
  const args: Arg[] = [];
  for (const p of parts) {
    const a = parseArg(p);
    if (!a) return null;
    args.push(a);
  }
  return { name: m[1], args };
}

/** An error of the formula itself (bad reference or name), shown with its own code like in Sheets. */
export class FormulaError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function resolveArea(wb: WorkbookCore, fc: CustomFormula, a: Arg): Area | null {
  if (a.kind === 'lit') return null;
  if (a.kind === 'name') {
    const nr = wb.namedRanges.get(a.name);
    if (!nr) throw new FormulaError('#NAME?', `Unknown range name: '${a.name.toUpperCase()}'.`);
    if (nr.broken) throw new FormulaError('#REF!', 'Reference does not exist.');
    return liveArea(nr.area);
  }
  if (a.deleted) throw new FormulaError('#REF!', 'Reference does not exist.');
  const sheet = a.sheetName === undefined ? fc.sheet : wb.sheetByNameCi(a.sheetName);
  if (!sheet) throw new FormulaError('#REF!', `Unresolved sheet name '${a.sheetName}'.`);
  return { sheet, r1: a.r1 ?? 1, c1: a.c1 ?? 1, r2: a.r2 ?? sheet.maxRows, c2: a.c2 ?? sheet.maxCols };
}

function argValue(wb: WorkbookCore, fc: CustomFormula, a: Arg): unknown {
  if (a.kind === 'lit') return a.value;
  const area = resolveArea(wb, fc, a)!;
  const read = (r: number, c: number) => wb.readValue(area.sheet.cell(r, c));
  if (a.kind === 'ref' && a.single) return read(area.r1, area.c1);
  const rows: unknown[][] = [];
  for (let r = area.r1; r <= area.r2; r++) {
    const row: unknown[] = [];
    for (let c = area.c1; c <= area.c2; c++) row.push(read(r, c));
    rows.push(row);
  }
  // A one-cell named range or range still arrives as a single value, as in Sheets.
  return rows.length === 1 && rows[0].length === 1 ? rows[0][0] : rows;
}

/**
 * A result as rows. Chosen: a one-dimensional array fills a column (one element per row), which is
 * what Sheets shows for `return [1, 2, 3]`; ragged rows are padded with empty cells.
 */
function toRows(result: unknown): unknown[][] {
  if (!Array.isArray(result)) return [[result]];
  if (result.length === 0) return [['']];
  const rows = result.map((r) => (Array.isArray(r) ? (r.length ? r : ['']) : [r]));
  const width = rows.reduce((w, r) => Math.max(w, r.length), 0); // no spread: a result may have 100,000s of rows
  return rows.map((r) => (r.length < width ? [...r, ...new Array(width - r.length).fill('')] : r));
}

function storeResult(wb: WorkbookCore, cell: Cell, v: unknown): void {
  cell.err = undefined;
  if (v === null || v === undefined || v === '') cell.v = undefined;
  else if (typeof v === 'number') cell.v = Number.isFinite(v) ? truncate15(v) : '#NUM!';
  else if (typeof v === 'string' || typeof v === 'boolean')
    cell.v = v; // results are not parsed like input
  else if (isDate(v)) {
    cell.v = dateToSerial(v, wb.timeZone);
    if (isAutomatic(cell.fmt) && !isDateFormat(cell.fmt)) cell.fmt = DATE_TIME_FORMAT;
  } else cell.v = String(v);
}

/** Removes the spilled values of fc (the anchor keeps its formula). Returns the area it covered. */
function clearSpill(fc: CustomFormula): Area {
  const area = { sheet: fc.sheet, r1: fc.r, c1: fc.c, r2: fc.r + fc.rows - 1, c2: fc.c + fc.cols - 1 };
  for (let r = area.r1; r <= area.r2; r++)
    for (let c = area.c1; c <= area.c2; c++) {
      const cell = fc.sheet.cell(r, c);
      if (cell && cell.spilledFrom === fc) {
        cell.v = undefined;
        cell.spilledFrom = undefined;
      }
    }
  fc.rows = 1;
  fc.cols = 1;
  return area;
}

/** Clears every cell still holding the spill of a formula that no longer exists (its cells may have moved). */
function clearOrphans(fc: CustomFormula): Area[] {
  const out: Area[] = [];
  fc.sheet.rows.forEach((row, ri) =>
    row?.forEach((cell, ci) => {
      if (cell?.spilledFrom === fc) {
        cell.v = undefined;
        cell.spilledFrom = undefined;
        out.push({ sheet: fc.sheet, r1: ri + 1, c1: ci + 1, r2: ri + 1, c2: ci + 1 });
      }
    }),
  );
  return out;
}

function setError(fc: CustomFormula, code: string, message: string): void {
  const cell = fc.sheet.ensure(fc.r, fc.c);
  cell.v = code;
  cell.err = message;
}

/** Writes fc's last result (or error) into the grid. Returns the areas whose values changed. */
function layout(wb: WorkbookCore, fc: CustomFormula): Area[] {
  const before = clearSpill(fc);
  const changed = [before];
  if (!fc.result) {
    setError(fc, fc.error?.code ?? '#ERROR!', fc.error?.message ?? 'Formula not evaluated.');
    return changed;
  }
  const rows = fc.result;
  const nr = rows.length;
  const nc = rows[0].length;
  const sheet = fc.sheet;
  // Chosen wording for results that do not fit the sheet (Sheets' message for array formulas).
  if (fc.r + nr - 1 > sheet.maxRows) {
    setError(fc, '#REF!', `Result was not automatically expanded, please insert more rows (${fc.r + nr - 1 - sheet.maxRows}).`);
    return changed;
  }
  if (fc.c + nc - 1 > sheet.maxCols) {
    setError(fc, '#REF!', `Result was not automatically expanded, please insert more columns (${fc.c + nc - 1 - sheet.maxCols}).`);
    return changed;
  }
  for (let r = fc.r; r < fc.r + nr; r++)
    for (let c = fc.c; c < fc.c + nc; c++) {
      if (r === fc.r && c === fc.c) continue;
      if (!isEmptyCell(sheet.cell(r, c))) {
        setError(fc, '#REF!', `Array result was not expanded because it would overwrite data in ${cellA1(r, c)}.`);
        return changed;
      }
    }
  for (let i = 0; i < nr; i++)
    for (let j = 0; j < nc; j++) {
      const cell = sheet.ensure(fc.r + i, fc.c + j);
      storeResult(wb, cell, rows[i][j]);
      if (i || j) cell.spilledFrom = fc;
    }
  fc.rows = nr;
  fc.cols = nc;
  changed.push({ sheet, r1: fc.r, c1: fc.c, r2: fc.r + nr - 1, c2: fc.c + nc - 1 });
  return changed;
}

/** Records why fc has no result. */
function fail(fc: CustomFormula, e: unknown): void {
  fc.result = null;
  const message = e && typeof e === 'object' && 'message' in e ? String((e as Error).message) : String(e);
  fc.error = { code: e instanceof FormulaError ? e.code : '#ERROR!', message };
}

/** A changed area, and the formula whose result changed it (which it must not re-trigger). */
type Changed = { area: Area; from?: CustomFormula };

/**
 * Runs one WAVE of a recalculation: the custom functions Sheets starts at the same time. Every call
 * reads its arguments before the wave starts (they run concurrently; none of them feeds another, see
 * readyOf); `hooks.recalculationWave` (the runtime) models their concurrency: at most 30 simultaneous
 * executions per user, and side by side on the clock. Results are laid out after the wave, in order.
 */
function runWave(wb: WorkbookCore, wave: CustomFormula[], runs: Map<CustomFormula, number>): Changed[] {
  const hooks = wb.hooks;
  if (!hooks) return [];
  const calls = wave.map((fc) => {
    fc.error = null;
    runs.set(fc, (runs.get(fc) ?? 0) + 1);
    try {
      return { fc, args: fc.args.map((a) => argValue(wb, fc, a)) };
    } catch (e) {
      fail(fc, e); // a bad reference or name: no execution starts
      return null;
    }
  });
  const body = (call: (name: string, args: unknown[]) => unknown) => {
    for (const c of calls) {
      if (!c) continue;
      const prev = wb.evaluating;
      wb.evaluating = c.fc;
      try {
        c.fc.result = toRows(call(c.fc.name, c.args));
      } catch (e) {
        fail(c.fc, e);
      } finally {
        wb.evaluating = prev;
      }
    }
  };
  if (hooks.recalculationWave) hooks.recalculationWave(body);
  else body((name, args) => hooks.callCustomFunction(name, args));
  const out: Changed[] = [];
  for (const fc of wave) for (const area of layout(wb, fc)) out.push({ area, from: fc });
  return out;
}

function intersects(a: Area, b: Area): boolean {
  return a.sheet === b.sheet && a.r1 <= b.r2 && b.r1 <= a.r2 && a.c1 <= b.c2 && b.c1 <= a.c2;
}

/** The areas fc reads, or 'any' when a reference does not resolve now (it may once a sheet is added or renamed). */
function argAreas(wb: WorkbookCore, fc: CustomFormula): Area[] | 'any' {
  const out: Area[] = [];
  for (const a of fc.args) {
    try {
      const ar = resolveArea(wb, fc, a);
      if (ar) out.push(ar);
    } catch {
      if (a.kind !== 'lit' && !(a.kind === 'ref' && a.deleted)) return 'any';
    }
  }
  return out;
}

/** The cells fc's result covers now (anchor and spill). */
function extent(fc: CustomFormula): Area {
  return { sheet: fc.sheet, r1: fc.r, c1: fc.c, r2: fc.r + fc.rows - 1, c2: fc.c + fc.cols - 1 };
}

function isLive(fc: CustomFormula): boolean {
  return fc.sheet.cell(fc.r, fc.c)?.cf === fc && fc.sheet.workbook.sheets.includes(fc.sheet);
}

/** Formula registry per workbook. */
const registries = new WeakMap<WorkbookCore, Set<CustomFormula>>();
function registry(wb: WorkbookCore): Set<CustomFormula> {
  let s = registries.get(wb);
  if (!s) registries.set(wb, (s = new Set()));
  return s;
}

export function formulasOf(wb: WorkbookCore): CustomFormula[] {
  return [...registry(wb)].filter(isLive);
}

/** Formulas due to run in the next recalculation (written, moved or resolved), per workbook. */
const dues = new WeakMap<WorkbookCore, Set<CustomFormula>>();
function due(wb: WorkbookCore): Set<CustomFormula> {
  let s = dues.get(wb);
  if (!s) dues.set(wb, (s = new Set()));
  return s;
}

/**
 * A formula was written into (sheet, r, c) (cell.f is set). Attaches it when it is a custom function
 * call; the caller's afterWrite then runs it, with every other formula of the same write, as one
 * recalculation. Chosen: evaluation is synchronous, so the script reads the result right after
 * writing the formula (Sheets computes it shortly after, on its own).
 */
export function formulaWritten(wb: WorkbookCore, sheet: SheetModel, r: number, c: number): Area[] {
  const cell = sheet.ensure(r, c);
  const call = parseCall(cell.f ?? '');
  const name = call ? customName(wb, call.name) : undefined;
  if (!call || !name) {
    // A built-in formula (or an unknown function: #NAME?), computed by the engine in afterWrite.
    // Without hooks (no script loaded yet) custom formulas wait as text until attachFormulas/recalculate.
    cell.v = undefined;
    builtinWritten.add(wb);
    return [{ sheet, r1: r, c1: c, r2: r, c2: c }];
  }
  const fc = new CustomFormula(sheet, r, c, name, call.args);
  cell.cf = fc;
  registry(wb).add(fc);
  due(wb).add(fc);
  return [];
}

/**
 * Values in `areas` changed (and formulas may have been written): one RECALCULATION. Drops formulas
 * that were overwritten, re-spills results that a write blocked or unblocked, and re-runs custom
 * functions whose arguments changed (Sheets recalculates on argument change), following the chain of
 * dependent formulas. Chosen model (Google documents no scheduling): it runs in waves; the formulas
 * due now start together (one wave); those whose inputs another due formula is about to change wait
 * for it, and run in a later wave with what that one changed.
 */
export function afterWrite(wb: WorkbookCore, areas: Area[]): void {
  const reg = registry(wb);
  const pending = new Set(due(wb));
  due(wb).clear();
  const written = builtinWritten.delete(wb);
  const computed = syncBuiltin(wb, areas, written);
  if (reg.size === 0) return;
  const runs = new Map<CustomFormula, number>();
  let changed: Changed[] = [...areas, ...computed].map((area) => ({ area }));
  while (changed.length || pending.size) {
    collect(wb, changed, pending, runs);
    const wave = readyOf(wb, pending);
    if (!wave.length) break;
    for (const fc of wave) pending.delete(fc);
    changed = runWave(wb, wave, runs);
    // Custom-function results feed built-in formulas, whose new results may feed further custom functions.
    for (const area of syncBuiltin(
      wb,
      changed.map((it) => it.area),
      false,
    ))
      changed.push({ area });
  }
}

/** Workbooks into which a built-in formula was just written (their engine is created if needed). */
const builtinWritten = new WeakSet<WorkbookCore>();

/**
 * Adds to `pending` the formulas that read a changed area; lays out again (no execution) results
 * whose spill area a change blocked or freed, and clears spills of formulas that no longer exist.
 */
function collect(wb: WorkbookCore, items: Changed[], pending: Set<CustomFormula>, runs: Map<CustomFormula, number>): void {
  const reg = registry(wb);
  let round = items;
  while (round.length) {
    const next: Changed[] = [];
    for (const fc of [...reg]) {
      if (!isLive(fc)) {
        reg.delete(fc);
        pending.delete(fc);
        for (const area of clearOrphans(fc)) next.push({ area });
        continue;
      }
      if (pending.has(fc)) continue;
      const n = runs.get(fc) ?? 0;
      if (n > 20) continue; // circular chains stop here
      const deps = argAreas(wb, fc);
      const others = round.filter((it) => it.from !== fc);
      if (others.length === 0) continue;
      if (deps === 'any' || others.some((it) => deps.some((d) => intersects(d, it.area)))) {
        pending.add(fc);
        continue;
      }
      if (!fc.result) continue;
      const want = { sheet: fc.sheet, r1: fc.r, c1: fc.c, r2: fc.r + fc.result.length - 1, c2: fc.c + fc.result[0].length - 1 };
      const anchorOnly = (a: Area) => a.sheet === fc.sheet && a.r1 === fc.r && a.r2 === fc.r && a.c1 === fc.c && a.c2 === fc.c;
      if (others.some((it) => !anchorOnly(it.area) && intersects(want, it.area))) {
        // A write into (or a clear of) the spill area blocks or frees the spill.
        runs.set(fc, n + 1);
        for (const area of layout(wb, fc)) next.push({ area, from: fc });
      }
    }
    if (next.length)
      for (const area of syncBuiltin(
        wb,
        next.map((it) => it.area),
        false,
      ))
        next.push({ area });
    round = next;
  }
}

/**
 * The next wave: pending formulas (sheet by sheet, row by row) that no other pending formula feeds
 * (none of their arguments overlaps another pending formula's result). Those fed wait for the wave
 * that changes their input. When every pending formula is fed (a circular chain) all run.
 */
function readyOf(wb: WorkbookCore, pending: Set<CustomFormula>): CustomFormula[] {
  for (const fc of [...pending]) if (!isLive(fc)) pending.delete(fc);
  const live = [...pending].sort((a, b) => wb.sheets.indexOf(a.sheet) - wb.sheets.indexOf(b.sheet) || a.r - b.r || a.c - b.c);
  if (live.length <= 1) return live;
  // Which pending formula's result covers each cell (few cells per formula in practice).
  const cells = new Map<SheetModel, Map<number, CustomFormula>>();
  const key = (r: number, c: number) => r * 20000 + c;
  for (const fc of live) {
    let m = cells.get(fc.sheet);
    if (!m) cells.set(fc.sheet, (m = new Map()));
    for (let r = fc.r; r < fc.r + fc.rows; r++) for (let c = fc.c; c < fc.c + fc.cols; c++) m.set(key(r, c), fc);
  }
  const fed = (fc: CustomFormula): boolean => {
    const deps = argAreas(wb, fc);
    if (deps === 'any') return false;
    for (const d of deps) {
      const size = (d.r2 - d.r1 + 1) * (d.c2 - d.c1 + 1);
      if (size <= live.length) {
        const m = cells.get(d.sheet);
        if (!m) continue;
        for (let r = d.r1; r <= d.r2; r++)
          for (let c = d.c1; c <= d.c2; c++) {
            const o = m.get(key(r, c));
            if (o && o !== fc) return true;
          }
      } else if (live.some((o) => o !== fc && intersects(d, extent(o)))) return true;
    }
    return false;
  };
  const ready = live.filter((fc) => !fed(fc));
  return ready.length ? ready : live;
}

/** The declared name a formula's function name refers to, when it is a custom function of the script. */
function customName(wb: WorkbookCore, name: string): string | undefined {
  const hooks = wb.hooks;
  if (!hooks) return undefined;
  return [name, name.toUpperCase()].find((n) => hooks.isCustomFunction(n));
}

/**
 * Registers the custom-function formulas already in the workbook (loaded from a file or typed before
 * the script was loaded), without evaluating them, so that argument changes recalculate them.
 */
export function attachFormulas(wb: WorkbookCore): Area[] {
  const reg = registry(wb);
  for (const sheet of wb.sheets)
    sheet.rows.forEach((row, ri) =>
      row?.forEach((cell, ci) => {
        if (!cell?.f || cell.cf) return;
        const call = parseCall(cell.f);
        const name = call ? customName(wb, call.name) : undefined;
        if (!call || !name) return;
        const fc = new CustomFormula(sheet, ri + 1, ci + 1, name, call.args);
        cell.cf = fc;
        reg.add(fc);
        if (cell.loadedSpill) {
          // The stored values of a loaded array formula are its spill.
          const { rows, cols } = cell.loadedSpill;
          for (let r = fc.r; r < fc.r + rows; r++)
            for (let c = fc.c; c < fc.c + cols; c++) {
              const other = sheet.cell(r, c);
              if (other && other !== cell && !other.f) other.spilledFrom = fc;
            }
          fc.rows = rows;
          fc.cols = cols;
          fc.result = null;
          cell.loadedSpill = undefined;
        }
      }),
    );
  // Built-in formulas are computed now (a loaded file's cached results are replaced, as Sheets recalculates).
  return rebuildBuiltin(wb);
}

/** Re-evaluates every custom-function formula as one recalculation (used for "reopen"). */
export function recalculateAll(wb: WorkbookCore): void {
  const reg = registry(wb);
  const computed = attachFormulas(wb);
  for (const fc of [...reg])
    if (!isLive(fc)) {
      reg.delete(fc);
      clearOrphans(fc);
    }
  for (const fc of formulasOf(wb)) due(wb).add(fc);
  afterWrite(wb, computed);
}

/** After rows/columns were inserted or deleted, the formulas' anchors moved with their cells. */
export function reindex(wb: WorkbookCore, sheet: SheetModel): void {
  sheet.rows.forEach((row, ri) =>
    row?.forEach((cell, ci) => {
      if (cell?.cf) {
        cell.cf.r = ri + 1;
        cell.cf.c = ci + 1;
      }
    }),
  );
  for (const fc of [...registry(wb)])
    if (!isLive(fc)) {
      registry(wb).delete(fc);
      clearOrphans(fc);
    }
}

/** The error message behind a #ERROR!/#REF! cell (what Sheets shows when hovering it). */
export function errorMessage(cell: Cell | undefined): string | null {
  return cell?.err ?? null;
}

function renderRef(a: Extract<Arg, { kind: 'ref' }>): string {
  if (a.deleted) return a.sheetName === undefined ? '#REF!' : `${quoteSheetName(a.sheetName)}!#REF!`;
  const prefix = a.sheetName === undefined ? '' : `${quoteSheetName(a.sheetName)}!`;
  const col = (c: number | null) => (c === null ? '' : columnLetters(c));
  const row = (r: number | null) => (r === null ? '' : String(r));
  const p1 = col(a.c1) + row(a.r1);
  if (a.single) return prefix + p1;
  return `${prefix}${p1}:${col(a.c2) + row(a.r2)}`;
}

/**
 * Rows or columns were inserted (n > 0) or deleted (n < 0) at index `at` of `sheet`: custom formulas'
 * references move with their cells and their text is rewritten, as Sheets does; a reference whose
 * cells were all deleted becomes #REF!. (Other formulas' text is not rewritten.)
 */
export function shiftReferences(wb: WorkbookCore, sheet: SheetModel, dim: 'row' | 'col', at: number, n: number): void {
  const moved: CustomFormula[] = [];
  const areas: Area[] = shiftBuiltin(wb, sheet, dim, at, n);
  for (const fc of formulasOf(wb)) {
    let changed = false;
    let resized = false;
    for (const a of fc.args) {
      if (a.kind !== 'ref' || a.deleted) continue;
      const target = a.sheetName === undefined ? fc.sheet : wb.sheetByNameCi(a.sheetName);
      if (target !== sheet) continue;
      const [k1, k2] = dim === 'row' ? (['r1', 'r2'] as const) : (['c1', 'c2'] as const);
      const lo = a[k1];
      const hi = a[k2];
      if (lo === null || hi === null) continue; // whole rows/columns stay whole
      let nlo = lo;
      let nhi = hi;
      if (n > 0) {
        if (lo >= at) nlo += n;
        if (hi >= at) nhi += n;
      } else {
        const d1 = at;
        const d2 = at - n - 1;
        if (lo >= d1 && hi <= d2) {
          a.deleted = true;
          changed = resized = true;
          continue;
        }
        nlo = lo > d2 ? lo + n : lo >= d1 ? d1 : lo;
        nhi = hi > d2 ? hi + n : hi >= d1 ? d1 - 1 : hi;
      }
      if (nlo !== lo || nhi !== hi) {
        a[k1] = nlo;
        a[k2] = nhi;
        changed = true;
        if (nhi - nlo !== hi - lo) resized = true;
      }
    }
    if (!changed) continue;
    rewrite(fc);
    // A reference that only moved holds the same values: no recalculation.
    if (resized) moved.push(fc);
  }
  // Formulas whose arguments changed recalculate; results cut by the insertion or deletion re-spill.
  for (const fc of moved) due(wb).add(fc);
  for (const fc of formulasOf(wb)) {
    if (moved.includes(fc) || fc.sheet !== sheet || !fc.result) continue;
    const [start, size] = dim === 'row' ? [fc.r, fc.result.length] : [fc.c, fc.result[0].length];
    if (at > start && at <= start + size - 1 + (n < 0 ? 1 : 0)) areas.push(...layout(wb, fc));
  }
  afterWrite(wb, areas);
}

function rewrite(fc: CustomFormula): void {
  for (const a of fc.args) if (a.kind === 'ref') a.text = renderRef(a);
  const cell = fc.sheet.cell(fc.r, fc.c);
  if (cell) cell.f = `=${fc.name}(${fc.args.map((a) => a.text).join(', ')})`;
}

/** A sheet was renamed: references by its old name follow it (Sheets rewrites them); references that now resolve recalculate. */
export function sheetRenamed(wb: WorkbookCore, oldName: string, newName: string): void {
  const areas: Area[] = [];
  for (const fc of formulasOf(wb)) {
    let renamed = false;
    let resolves = false;
    for (const a of fc.args) {
      if (a.kind !== 'ref' || a.sheetName === undefined) continue;
      if (a.sheetName.toLowerCase() === oldName.toLowerCase()) {
        a.sheetName = newName;
        renamed = true;
      } else if (a.sheetName.toLowerCase() === newName.toLowerCase()) resolves = true;
    }
    if (renamed) rewrite(fc);
    if (resolves) due(wb).add(fc);
  }
  afterWrite(wb, areas);
}
