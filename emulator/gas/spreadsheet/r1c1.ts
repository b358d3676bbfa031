/**
 * R1C1 notation: formulas written relative to their cell (Range.get/setFormulaR1C1) and absolute
 * R1C1 ranges (Sheet.getRange('R1C1:R2C3'), which Google's reference accepts beside A1).
 * As Sheets writes it (gas-fakes test/testsheets.js "R1C1 Formula Notation"): a relative part is
 * always bracketed, also when zero (`=B11` from B10 reads `=R[1]C[0]`); an absolute part is bare.
 */
import { A1_REFERENCE, type GridRef, columnLetters, columnNumber, outsideLiterals, splitSheet } from './a1';

const PART = String.raw`(\[-?\d+\]|\d+)?`;
// R1C1, R[1]C[-2], RC, R2C; spans R[1]:R[2] and C1:C[3]. Not part of a name or a function call.
const R1C1_REF = new RegExp(
  String.raw`(?<![A-Za-z0-9_.$])(?:[Rr]${PART}[Cc]${PART}|[Rr]${PART}:[Rr]${PART}|[Cc]${PART}:[Cc]${PART})(?![A-Za-z0-9_(\[])`,
  'g',
);

function rel(abs: string, n: number, at: number): string {
  return abs ? String(n) : `[${n - at}]`;
}

/** The formula in R1C1 notation as seen from (row, col). */
export function formulaToR1C1(formula: string, row: number, col: number): string {
  const r = (abs: string, digits: string) => `R${rel(abs, Number(digits), row)}`;
  const c = (abs: string, letters: string) => `C${rel(abs, columnNumber(letters), col)}`;
  return outsideLiterals(formula, (code) =>
    code.replace(A1_REFERENCE, (m, ca, cl, ra, rd, c1a, c1, c2a, c2, r1a, r1, r2a, r2) => {
      if (cl !== undefined) return columnNumber(cl) > 18278 ? m : r(ra, rd) + c(ca, cl);
      if (c1 !== undefined) return `${c(c1a, c1)}:${c(c2a, c2)}`;
      return `${r(r1a, r1)}:${r(r2a, r2)}`;
    }),
  );
}

/** A part of an R1C1 reference as A1: [n] is relative to `at`, a bare n absolute, none is `at`. */
function a1Part(p: string | undefined, at: number): { abs: boolean; n: number } {
  if (p === undefined) return { abs: false, n: at };
  if (p.startsWith('[')) return { abs: false, n: at + Number(p.slice(1, -1)) };
  return { abs: true, n: Number(p) };
}

/** The formula in A1 notation from its R1C1 form at (row, col); a reference off the sheet is #REF!. */
export function formulaFromR1C1(formula: string, row: number, col: number): string {
  const r = (p: string | undefined) => {
    const x = a1Part(p, row);
    return x.n < 1 ? null : (x.abs ? '$' : '') + x.n;
  };
  const c = (p: string | undefined) => {
    const x = a1Part(p, col);
    return x.n < 1 ? null : (x.abs ? '$' : '') + columnLetters(x.n);
  };
  return outsideLiterals(formula, (code) =>
    code.replace(R1C1_REF, (m, cr, cc, sr1, sr2, sc1, sc2) => {
      let parts: Array<string | null>;
      if (/^[Rr][^:]*:/.test(m)) parts = [r(sr1), r(sr2)];
      else if (/^[Cc]/.test(m)) parts = [c(sc1), c(sc2)];
      else {
        const [cl, rw] = [c(cc), r(cr)];
        parts = [cl === null || rw === null ? null : cl + rw];
      }
      return parts.some((x) => x === null) ? '#REF!' : parts.join(':');
    }),
  );
}

/** Absolute R1C1 range notation (R1C1, R2C3:R5C4, Sheet1!R1C1), as getRange accepts it; else null. */
export function parseR1C1(ref: string): GridRef | null {
  const sp = splitSheet(ref);
  if (!sp) return null;
  const m = /^[Rr](\d+)[Cc](\d+)(?::[Rr](\d+)[Cc](\d+))?$/.exec(sp.rest.trim());
  if (!m) return null;
  const [r1, c1] = [Number(m[1]), Number(m[2])];
  const [r2, c2] = m[3] === undefined ? [r1, c1] : [Number(m[3]), Number(m[4])];
  if (!r1 || !c1 || !r2 || !c2) return null;
  return { sheetName: sp.sheetName, r1: Math.min(r1, r2), c1: Math.min(c1, c2), r2: Math.max(r1, r2), c2: Math.max(c1, c2) };
}
