/**
 * IMAGE and SPARKLINE for the formula engine. In Google a cell with either shows a picture and
 * holds no value: getValue and getDisplayValue give '' and getFormula the formula (the values
 * Sheets' API gives such cells; Google's function pages, support.google.com/docs/answer/3093333
 * and /3093289, describe only what is drawn). The arguments are checked as Sheets checks them, so
 * a mistake shows the error a seller would see; the drawing itself is the playground's.
 */
import { type HF, pluginKit } from './plugin-kit';
import { registerArrayFunctions } from './array-functions';
import { registerTextFunctions } from './text-functions';

/** IMAGE's sizing modes: 1 fit, 2 stretch, 3 original size, 4 custom (height and width given). */
const IMAGE_MODES = [1, 2, 3, 4];

let registered = false;

/**
 * Registers IMAGE and SPARKLINE with the engine once (before any engine is built), and what the
 * scan overview's formulas need beside them: the text functions a picture's address is read with
 * (text-functions.ts) and the array functions its categories are ordered with (array-functions.ts).
 */
export function registerPictureFunctions(lib: HF): void {
  if (registered) return;
  registered = true;
  registerTextFunctions(lib);
  registerArrayFunctions(lib);
  const { FunctionPlugin, T, CellError, ErrorType, register } = pluginKit(lib);
  class PictureFunctions extends FunctionPlugin {
    static implementedFunctions = {
      IMAGE: {
        method: 'image',
        parameters: [
          { argumentType: T.STRING },
          { argumentType: T.NUMBER, optionalArg: true },
          { argumentType: T.NUMBER, optionalArg: true },
          { argumentType: T.NUMBER, optionalArg: true },
        ],
      },
      SPARKLINE: {
        method: 'sparkline',
        parameters: [{ argumentType: T.RANGE }, { argumentType: T.RANGE, optionalArg: true }],
      },
    };
    image(ast: { args: unknown[] }, state: unknown) {
      return this.runFunction(
        ast.args as never,
        state as never,
        this.metadata('IMAGE'),
        (_url: string, mode?: number, h?: number, w?: number) => {
          if (mode !== undefined && !IMAGE_MODES.includes(mode))
            return new CellError(ErrorType.VALUE, `Function IMAGE parameter 2 value is ${mode}. Valid values are 1, 2, 3 or 4.`);
          if (mode === 4 && (h === undefined || w === undefined))
            return new CellError(ErrorType.VALUE, 'Function IMAGE with mode 4 takes a height and a width.');
          if (mode !== 4 && (h !== undefined || w !== undefined))
            return new CellError(ErrorType.NA, 'Function IMAGE takes a height and a width only with mode 4.');
          return '';
        },
      );
    }
    sparkline(ast: { args: unknown[] }, state: unknown) {
      return this.runFunction(ast.args as never, state as never, this.metadata('SPARKLINE'), () => '');
    }
  }
  register(PictureFunctions, ['IMAGE', 'SPARKLINE']);
}
