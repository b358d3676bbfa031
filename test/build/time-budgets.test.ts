/**
 * Time budgets have one home (GUIDE "One source of truth per fact"): src/domain/time-budgets.ts.
 * Google's limits they are cut from are the quotas page's (developers.google.com/apps-script/guides/services/quotas):
 * 6 minutes an execution, 30 s a custom function, 90 minutes of triggers a day (consumer).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { filesUnder } from './files';
import * as budgets from '../../src/domain/time-budgets';

const ROOT = join(__dirname, '..', '..');
const TABLE = 'src/domain/time-budgets.ts';

/**
 * Files that still set a budget of their own, which this change may not touch (issue 34: the lists
 * sync is being reworked). This list only shrinks: a file that no longer sets one fails the test.
 */
const NOT_YET_CONVERTED = ['src/app/lists/environment.ts', 'src/app/lists/schedule.ts'];

/** `line: text` of each budget a source sets: a *_BUDGET/RESERVE/LIMIT/STARTUP/FINISH/ROOM_MS constant, or a number given as budgetMs/deadlineMs. */
export function budgetsSetIn(text: string): string[] {
  const out: string[] = [];
  text.split('\n').forEach((line, i) => {
    const code = line.replace(/\/\/.*$/, '');
    if (/\bconst [A-Z_]*(BUDGET|RESERVE|LIMIT|STARTUP|FINISH|ROOM)_MS\s*=/.test(code) || /\b(budgetMs|deadlineMs)\s*:\s*[\d(]/.test(code))
      out.push(`${i + 1}: ${line.trim()}`);
  });
  return out;
}

test('the checker sees a budget constant and a literal budget, not a comment or a budget read from the table', () => {
  const sample = [
    'const CALL_BUDGET_MS = 30_000;',
    'export const END_RESERVE_MS = 30000;',
    'const t = { budgetMs: 4 * 60 * 1000 };',
    '// const OLD_BUDGET_MS = 1;',
    'const t2 = { budgetMs: IMPORT_BUDGET_MS };',
    'const FORGET_AFTER_MS = 7;',
  ].join('\n');
  expect(budgetsSetIn(sample)).toEqual([
    '1: const CALL_BUDGET_MS = 30_000;',
    '2: export const END_RESERVE_MS = 30000;',
    '3: const t = { budgetMs: 4 * 60 * 1000 };',
  ]);
});

test('no file of src/ sets a time budget outside the table (src/domain/time-budgets.ts)', () => {
  const setters = filesUnder('src')
    .filter((f) => f !== TABLE && budgetsSetIn(readFileSync(join(ROOT, f), 'utf8')).length > 0)
    .sort();
  expect(setters).toEqual([...NOT_YET_CONVERTED].sort());
});

test("the table's budgets fit inside Google's limits with their margins", () => {
  expect(budgets.EXECUTION_LIMIT_MS).toBe(6 * 60_000);
  expect(budgets.CUSTOM_FUNCTION_LIMIT_MS).toBe(30_000);
  expect(budgets.FORMULA_STARTUP_MS + budgets.FORMULA_BUDGET_MS + budgets.FORMULA_FINISH_MS).toBe(budgets.CUSTOM_FUNCTION_LIMIT_MS);
  expect(budgets.FORMULA_WAVE_RESERVE_MS).toBeLessThan(budgets.FORMULA_BUDGET_MS);
  for (const work of [
    budgets.IMPORT_BUDGET_MS,
    budgets.UPLOAD_BUDGET_MS,
    budgets.POLL_BUDGET_MS,
    budgets.HISTORY_CALL_BUDGET_MS,
    budgets.SIDEBAR_FINISH_MS,
  ])
    expect(work).toBeLessThan(budgets.EXECUTION_LIMIT_MS);
  expect(budgets.END_RESERVE_MS + budgets.RETRY_ROOM_MS).toBeLessThan(budgets.EXECUTION_LIMIT_MS);
  expect(budgets.TRIGGER_RESERVE_MS).toBeLessThan(budgets.TRIGGER_DAY_BUDGET_MS);
});
