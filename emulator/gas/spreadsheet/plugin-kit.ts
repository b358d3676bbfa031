/**
 * What the engine's function plugins (picture-, text- and array-functions.ts) take from HyperFormula,
 * typed once: the library exports CellError's constructor and SimpleRangeValue at run time but types
 * neither as the plugins use them.
 */
import type { HyperFormula as HyperFormulaT } from 'hyperformula';

export type HF = typeof import('hyperformula');

type Kit = HF & {
  CellError: new (type: string, message?: string) => unknown;
  SimpleRangeValue: { onlyValues(data: unknown[][]): unknown };
};

/** The plugin base class, argument types, errors and array values, and a register that names each function as itself. */
export function pluginKit(lib: HF) {
  const kit = lib as Kit;
  return {
    FunctionPlugin: kit.FunctionPlugin,
    T: kit.FunctionArgumentType,
    CellError: kit.CellError,
    ErrorType: kit.ErrorType,
    SimpleRangeValue: kit.SimpleRangeValue,
    register(plugin: unknown, names: string[]): void {
      const enGB = Object.fromEntries(names.map((n) => [n, n]));
      (lib.HyperFormula as typeof HyperFormulaT).registerFunctionPlugin(plugin as never, { enGB });
    },
  };
}
