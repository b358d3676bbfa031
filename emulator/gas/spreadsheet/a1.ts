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
