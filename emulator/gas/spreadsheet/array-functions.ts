/**
 * UNIQUE and SORT for the formula engine (HyperFormula has neither), as Google's pages describe them,
 * computed where another function takes their array (INDEX(SORT(UNIQUE(...)), k), COUNTA(UNIQUE(...))):
 * the local runtime does not spill an array formula's result into the cells below (formulas.ts).
 *
 * UNIQUE(range, [by_column], [exactly_once]) (support.google.com/docs/answer/10522653): the rows
 * (or columns) of the range once each, in the order they first appear; with exactly_once, only those
 * that appear once. Rows compare value by value, text case-sensitively (Sheets keeps "a" and "A").
 *
 * SORT(range, sort_column, is_ascending, [sort_column2, is_ascending2, ...])
 * (support.google.com/docs/answer/3093150): the range's rows sorted by each key in turn; a key is the
 * index of a column of the range or a range of the same height outside it. Ascending: numbers, then
 * text (case-insensitive), then TRUE/FALSE; blank keys last either way. Rows whose keys are all equal
 * keep the range's order (Google's page is silent: give a last key that tells them apart).
 */
import { type HF, pluginKit } from './plugin-kit';

interface Range {
  data: unknown[][];
  width(): number;
  height(): number;
}

/** A number the engine may wrap (a date, a currency), as a plain number; the empty cell as null. */
function plain(v: unknown): unknown {
  if (typeof v === 'symbol') return null;
  if (v !== null && typeof v === 'object' && 'val' in v) return (v as { val: unknown }).val;
  return v;
}

/** Sheets' ascending order of kinds: numbers, text, booleans, then anything else; blanks are placed apart. */
function kind(v: unknown): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return v === '' ? 4 : 1;
  if (typeof v === 'boolean') return 2;
  return v === null ? 4 : 3;
}

function compare(a: unknown, b: unknown): number {
  const ka = kind(a);
  const kb = kind(b);
  if (ka !== kb) return ka - kb;
  if (ka === 0) return (a as number) - (b as number);
  if (ka === 1) {
    const x = (a as string).toLowerCase();
    const y = (b as string).toLowerCase();
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (ka === 2) return Number(a) - Number(b);
  return 0;
}

/** A value's identity for UNIQUE: its kind and value (1 and "1" differ, "a" and "A" differ). */
function keyOf(v: unknown): string {
  const p = plain(v);
  return `${kind(p)}\u0000${String(p)}`;
}

/** Registers UNIQUE and SORT with the engine (once, through registerPictureFunctions). */
export function registerArrayFunctions(lib: HF): void {
  const { FunctionPlugin, T, CellError, ErrorType, SimpleRangeValue, register } = pluginKit(lib);
  const error = (type: string, message: string) => new CellError(type, message);
  class ArrayFunctions extends FunctionPlugin {
    static implementedFunctions = {
      UNIQUE: {
        method: 'unique',
        parameters: [
          { argumentType: T.RANGE },
          { argumentType: T.BOOLEAN, defaultValue: false },
          { argumentType: T.BOOLEAN, defaultValue: false },
        ],
        enableArrayArithmeticForArguments: true,
        vectorizationForbidden: true,
      },
      SORT: {
        method: 'sort',
        parameters: [{ argumentType: T.RANGE }, { argumentType: T.ANY }, { argumentType: T.BOOLEAN }],
        repeatLastArgs: 2,
        enableArrayArithmeticForArguments: true,
        vectorizationForbidden: true,
      },
    };

    unique(ast: { args: unknown[] }, state: unknown) {
      return this.runFunction(ast.args as never, state as never, this.metadata('UNIQUE'), ((
        range: Range,
        byColumn: boolean,
        once: boolean,
      ) => {
        const rows = byColumn ? transpose(range.data) : range.data;
        const seen = new Map<string, { row: unknown[]; n: number }>();
        for (const row of rows) {
          const key = row.length === 1 ? keyOf(row[0]) : row.map(keyOf).join('\u0001');
          const had = seen.get(key);
          if (had) had.n++;
          else seen.set(key, { row, n: 1 });
        }
        const out = [...seen.values()].filter((e) => !once || e.n === 1).map((e) => e.row);
        if (!out.length) return error(ErrorType.NA, 'No unique values found.');
        return SimpleRangeValue.onlyValues(byColumn ? transpose(out) : out);
      }) as never);
    }

    sort(ast: { args: unknown[] }, state: unknown) {
      return this.runFunction(ast.args as never, state as never, this.metadata('SORT'), ((range: Range, ...pairs: unknown[]) => {
        const keys: Array<{ values: unknown[]; ascending: boolean }> = [];
        for (let i = 0; i < pairs.length; i += 2) {
          const column = pairs[i];
          const ascending = pairs[i + 1] as boolean;
          if (typeof column === 'number') {
            if (!Number.isInteger(column) || column < 1 || column > range.width())
              return error(
                ErrorType.VALUE,
                `Function SORT parameter ${i + 2} value is ${column}. It should be between 1 and ${range.width()}.`,
              );
            keys.push({ values: range.data.map((row) => plain(row[column - 1])), ascending });
          } else if (column && typeof column === 'object' && 'data' in column) {
            const c = column as Range;
            if (c.width() !== 1 || c.height() !== range.height())
              return error(
                ErrorType.VALUE,
                'SORT has mismatched range sizes. Expected row count: ' + range.height() + '. column count: 1.',
              );
            keys.push({ values: c.data.map((row) => plain(row[0])), ascending });
          } else return error(ErrorType.VALUE, `Function SORT parameter ${i + 2} expects a column number or a range.`);
        }
        const order = range.data.map((_, i) => i);
        order.sort((a, b) => {
          for (const { values, ascending } of keys) {
            const x = values[a];
            const y = values[b];
            const blank = Number(kind(x) === 4) - Number(kind(y) === 4);
            if (blank) return blank; // blanks last, ascending or not
            const c = compare(x, y);
            if (c) return ascending ? c : -c;
          }
          return a - b;
        });
        return SimpleRangeValue.onlyValues(order.map((i) => range.data[i]));
      }) as never);
    }
  }
  register(ArrayFunctions, ['UNIQUE', 'SORT']);
}

function transpose(rows: unknown[][]): unknown[][] {
  return rows.length ? rows[0].map((_, c) => rows.map((r) => r[c])) : [];
}
