/**
 * FORMULATEXT and REGEXEXTRACT for the formula engine, as Google Sheets computes them, where
 * HyperFormula differs or lacks them (the overview's top products read a Picture cell's address
 * with both).
 *
 * FORMULATEXT(cell) (support.google.com/docs/answer/9365792) "returns what is displayed in the
 * formula bar" of the cell, and of a range's top-left cell. In Sheets the cell may come from a
 * function that gives a reference, INDEX(range, row, [column]) (support.google.com/docs/answer/3098242),
 * as in Excel; HyperFormula takes only a written reference and gives #N/A for INDEX(...). Modelled:
 * a written reference, as HyperFormula does, and INDEX over a reference. Anything else: #N/A, as
 * for a cell without a formula.
 *
 * REGEXEXTRACT(text, regular_expression) (support.google.com/docs/answer/3098244): the first match,
 * or its capture group; text only (a number is refused); RE2 syntax. Modelled with the JavaScript
 * engine on the RE2 syntax both share: what RE2 refuses (look-around, back references) is refused
 * here too, and a pattern with more than one capture group (Sheets spreads the groups over
 * columns) says the local runtime does not compute it.
 */
import { type HF, pluginKit } from './plugin-kit';

interface Ast {
  type: string;
  procedureName?: string;
  args?: Ast[];
  expression?: Ast;
}
interface RangeValue {
  range?: { start: { sheet: number; row: number; col: number }; width(): number; height(): number };
}

/** RE2 has no look-around and no back references (github.com/google/re2/wiki/Syntax: "NOT SUPPORTED"). */
const NOT_RE2 = /\(\?<?[=!]|\\[1-9]/;

/** The JavaScript RegExp of an RE2 pattern: leading flags `(?i)`, `(?s)`, `(?m)` become flags; `(?P<name>` is `(?<name>`. */
export function re2Pattern(pattern: string): RegExp | null {
  if (NOT_RE2.test(pattern)) return null;
  const flags = /^\(\?([ims]+)\)/.exec(pattern);
  const body = (flags ? pattern.slice(flags[0].length) : pattern).replace(/\(\?P</g, '(?<');
  try {
    return new RegExp(body, `u${flags ? [...new Set(flags[1])].join('') : ''}`);
  } catch {
    return null;
  }
}

/** Registers FORMULATEXT (replacing HyperFormula's) and REGEXEXTRACT with the engine (once, through registerPictureFunctions). */
export function registerTextFunctions(lib: HF): void {
  const { FunctionPlugin, T, CellError, ErrorType, register } = pluginKit(lib);
  const INDEX_ARGS = {
    parameters: [{ argumentType: T.RANGE }, { argumentType: T.NUMBER }, { argumentType: T.NUMBER, defaultValue: 1 }],
  };
  const na = (message: string) => new CellError(ErrorType.NA, message);
  class TextFunctions extends FunctionPlugin {
    static implementedFunctions = {
      FORMULATEXT: {
        method: 'formulatext',
        parameters: [{ argumentType: T.NOERROR }],
        // As HyperFormula's: a cell's own reference is no dependency (Sheets: "avoid a circular
        // reference"); INDEX's arguments are (the engine collects a called function's arguments).
        doesNotNeedArgumentsToBeComputed: true,
        isDependentOnSheetStructureChange: true,
        vectorizationForbidden: true,
      },
      REGEXEXTRACT: {
        method: 'regexextract',
        parameters: [{ argumentType: T.SCALAR }, { argumentType: T.STRING }],
      },
    };

    formulatext(ast: { args: Ast[] }, state: unknown) {
      const formulaOf = (address: unknown) => this.serialization.getCellFormula(address as never) ?? na('Cell does not contain a formula.');
      let arg = ast.args[0];
      while (arg?.type === 'PARENTHESIS' && arg.expression) arg = arg.expression;
      if (ast.args.length === 1 && arg.type === 'FUNCTION_CALL' && arg.procedureName === 'INDEX')
        return this.runFunction(arg.args as never, state as never, INDEX_ARGS as never, (value: RangeValue, row: number, col: number) => {
          const range = value.range;
          if (!range) return na('Function FORMULATEXT parameter 1 expects a cell reference.');
          if (row < 1 || col < 1) return new CellError(ErrorType.VALUE, 'Function INDEX parameter 2 and 3 must be at least 1.');
          if (row > range.height() || col > range.width())
            return new CellError(ErrorType.REF, 'Function INDEX parameter 2 value is out of range.');
          const { sheet, row: r0, col: c0 } = range.start;
          return formulaOf({ sheet, row: r0 + row - 1, col: c0 + col - 1 });
        });
      return this.runFunctionWithReferenceArgument(
        ast.args as never,
        state as never,
        this.metadata('FORMULATEXT'),
        () => na('Wrong number of arguments.'),
        formulaOf,
        () => na('Function FORMULATEXT parameter 1 expects a cell reference.'),
      );
    }

    regexextract(ast: { args: unknown[] }, state: unknown) {
      return this.runFunction(ast.args as never, state as never, this.metadata('REGEXEXTRACT'), (text: unknown, pattern: string) => {
        // An empty cell is the engine's EmptyValue symbol: empty text.
        if (typeof text === 'symbol') text = '';
        if (typeof text !== 'string' && typeof text !== 'boolean')
          return new CellError(
            ErrorType.VALUE,
            `Function REGEXEXTRACT parameter 1 expects text values. But '${String(text)}' is a number and cannot be coerced to a text.`,
          );
        const input = typeof text === 'boolean' ? String(text).toUpperCase() : text;
        const re = re2Pattern(pattern);
        if (!re)
          return new CellError(ErrorType.REF, `Function REGEXEXTRACT parameter 2 value "${pattern}" is not a valid regular expression.`);
        const m = re.exec(input);
        if (!m)
          return na(
            `Function REGEXEXTRACT parameter 2 value "${pattern}" does not match text of Function REGEXEXTRACT parameter 1 value "${input}".`,
          );
        if (m.length > 2)
          return new CellError(ErrorType.ERROR, 'REGEXEXTRACT with more than one capture group is not computed by the local runtime.');
        return m.length === 2 ? (m[1] ?? '') : m[0];
      });
    }
  }
  register(TextFunctions, ['FORMULATEXT', 'REGEXEXTRACT']);
}
