/** A1 notation: column letters, cell and range references, with optional sheet names. */

export interface GridRef {
  /** Sheet name when the reference names one ('Sheet 1'!A1 or Sheet1!A1). */
  sheetName?: string;
  /** 1-based, inclusive. For open ranges (A:B, 2:3, A2:B) the missing side is null. */
  r1: number | null;
  c1: number | null;
  r2: number | null;
  c2: number | null;
}

export function columnLetters(col: number): string {
  let s = '';
  let n = col;
  while (n > 0) {
    const m = (n - 1) % 26;
    s = String.fromCharCode(65 + m) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

export function columnNumber(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

export function cellA1(row: number, col: number): string {
  return columnLetters(col) + row;
}

export function rangeA1(r1: number, c1: number, r2: number, c2: number): string {
  return r1 === r2 && c1 === c2 ? cellA1(r1, c1) : `${cellA1(r1, c1)}:${cellA1(r2, c2)}`;
}

/** Quotes a sheet name for use in A1 notation the way Sheets does (only when needed). */
export function quoteSheetName(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !/^[A-Za-z]{1,3}\d+$/.test(name) ? name : `'${name.replace(/'/g, "''")}'`;
}

const PART = /^\$?([A-Za-z]{0,3})\$?(\d*)$/;

function parsePart(p: string): { r: number | null; c: number | null } | null {
  const m = PART.exec(p);
  if (!m || (!m[1] && !m[2])) return null;
  const c = m[1] ? columnNumber(m[1]) : null;
  const r = m[2] ? Number(m[2]) : null;
  if (r === 0) return null;
  return { r, c };
}

/** Splits "'My sheet'!A1:B2" into sheet name and the rest; returns null when the quoting is broken. */
export function splitSheet(ref: string): { sheetName?: string; rest: string } | null {
  const s = ref.trim();
  if (s.startsWith("'")) {
    let i = 1;
    let name = '';
    while (i < s.length) {
      if (s[i] === "'") {
        if (s[i + 1] === "'") {
          name += "'";
          i += 2;
          continue;
        }
        break;
      }
      name += s[i++];
    }
    if (s[i] !== "'" || s[i + 1] !== '!') return null;
    return { sheetName: name, rest: s.slice(i + 2) };
  }
  const bang = s.lastIndexOf('!');
  if (bang >= 0) return { sheetName: s.slice(0, bang), rest: s.slice(bang + 1) };
  return { rest: s };
}

/** Parses A1 notation (A1, A1:B2, A:A, 1:3, A2:C, Sheet!A1). Returns null when it is not A1 notation. */
export function parseA1(ref: string): GridRef | null {
  const sp = splitSheet(ref);
  if (!sp) return null;
  const parts = sp.rest.split(':');
  if (parts.length > 2) return null;
  const a = parsePart(parts[0]);
  if (!a) return null;
  if (parts.length === 1) {
    if (a.r === null || a.c === null) return null;
    return { sheetName: sp.sheetName, r1: a.r, c1: a.c, r2: a.r, c2: a.c };
  }
  const b = parsePart(parts[1]);
  if (!b) return null;
  // Column-only (A:B) and row-only (1:2) forms must be consistent on both sides.
  if ((a.r === null && a.c === null) || (b.r === null && b.c === null)) return null;
  if (a.c === null && (b.c !== null || a.r === null)) return null;
  if (a.r === null && a.c !== null && b.c === null) return null;
  let { r: r1, c: c1 } = a;
  let { r: r2, c: c2 } = b;
  if (r1 !== null && r2 !== null && r1 > r2) [r1, r2] = [r2, r1];
  if (c1 !== null && c2 !== null && c1 > c2) [c1, c2] = [c2, c1];
  return { sheetName: sp.sheetName, r1, c1, r2, c2 };
}

/**
 * A reference in formula text: a cell (A1, $A$1), a column span (A:C) or a row span (2:5), not part of
 * a name or a function call. Groups: cell ($, letters, $, digits), column span ($, letters, $, letters),
 * row span ($, digits, $, digits). For String.replace only (it is global).
 */
export const A1_REFERENCE =
  /(?<![A-Za-z0-9_.$])(?:(\$?)([A-Za-z]{1,3})(\$?)(\d+)|(\$?)([A-Za-z]{1,3}):(\$?)([A-Za-z]{1,3})|(\$?)(\d+):(\$?)(\d+))(?![A-Za-z0-9_(])/g;

/**
 * The formula as Sheets writes it `dr` rows and `dc` columns away from where it was given (what
 * setFormula on a multi-cell range does, and copying a formula): relative references move, `$`
 * parts stay; references in string literals are text and stay. A reference moved off the sheet's
 * top or left edge becomes #REF!.
 */
export function offsetFormula(formula: string, dr: number, dc: number): string {
  if (dr === 0 && dc === 0) return formula;
  const col = (abs: string, letters: string): string | null => {
    if (abs || dc === 0) return abs + letters;
    const n = columnNumber(letters) + dc;
    return n < 1 ? null : columnLetters(n);
  };
  const row = (abs: string, digits: string): string | null => {
    if (abs || dr === 0) return abs + digits;
    const n = Number(digits) + dr;
    return n < 1 ? null : String(n);
  };
  const shift = (code: string) =>
    code.replace(A1_REFERENCE, (m, ca, cl, ra, rd, c1a, c1, c2a, c2, r1a, r1, r2a, r2) => {
      let out: Array<string | null>;
      if (cl !== undefined) {
        if (columnNumber(cl) > 18278) return m;
        out = [col(ca, cl.toUpperCase()), row(ra, rd)];
        return out.some((x) => x === null) ? '#REF!' : out.join('');
      }
      if (c1 !== undefined) {
        out = [col(c1a, c1.toUpperCase()), col(c2a, c2.toUpperCase())];
        return out.some((x) => x === null) ? '#REF!' : out.join(':');
      }
      out = [row(r1a, r1), row(r2a, r2)];
      return out.some((x) => x === null) ? '#REF!' : out.join(':');
    });
  return outsideLiterals(formula, shift);
}

/** Applies `f` to the parts of a formula outside string literals ("...", with "" inside) and quoted sheet names ('...'!). */
export function outsideLiterals(formula: string, f: (code: string) => string): string {
  let result = '';
  let i = 0;
  while (i < formula.length) {
    const ch = formula[i];
    if (ch === '"' || ch === "'") {
      let j = i + 1;
      while (j < formula.length) {
        if (formula[j] === ch) {
          if (formula[j + 1] === ch) j += 2;
          else break;
        } else j++;
      }
      result += formula.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    let j = i;
    while (j < formula.length && formula[j] !== '"' && formula[j] !== "'") j++;
    result += f(formula.slice(i, j));
    i = j;
  }
  return result;
}
