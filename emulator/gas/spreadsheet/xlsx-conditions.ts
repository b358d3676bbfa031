/**
 * The boolean conditions of conditional format rules (Apps Script's BooleanCriteria:
 * developers.google.com/apps-script/reference/spreadsheet/boolean-criteria) in an .xlsx file, for
 * xlsx.ts. Each is written as the rule Excel itself writes for that condition (ECMA-376 Part 1,
 * 18.3.1.10 cfRule: type, operator, text, and the formula Excel evaluates), so other spreadsheet
 * programs show it, and read back to the same condition:
 * - numbers: `cellIs` with its operator; text is exactly: `cellIs` `equal` to a quoted string (Excel's
 *   "Equal To" rule with text; Excel has no other "text is exactly");
 * - text contains / does not contain / starts with / ends with: `containsText`, `notContainsText`,
 *   `beginsWith`, `endsWith`, the text in the `text` attribute and in the formula
 *   (NOT(ISERROR(SEARCH("t",A1))), ISERROR(SEARCH(..)), LEFT(A1,LEN("t"))="t", RIGHT(..));
 * - empty / not empty: `containsBlanks`, `notContainsBlanks`; custom formula: `expression`.
 * Where Google documents nothing (what a Sheets download writes for each), this is chosen.
 * exceljs writes a text rule's operator as its type and no `text` attribute: xlsx.ts puts Excel's
 * (excelRuleAttributes) into the saved sheet's XML.
 */
import type ExcelJS from 'exceljs';

const CELL_IS: Record<string, string> = {
  NUMBER_GREATER_THAN: 'greaterThan',
  NUMBER_GREATER_THAN_OR_EQUAL_TO: 'greaterThanOrEqual',
  NUMBER_LESS_THAN: 'lessThan',
  NUMBER_LESS_THAN_OR_EQUAL_TO: 'lessThanOrEqual',
  NUMBER_EQUAL_TO: 'equal',
  NUMBER_NOT_EQUAL_TO: 'notEqual',
  NUMBER_BETWEEN: 'between',
  NUMBER_NOT_BETWEEN: 'notBetween',
};

/** The text conditions: Excel's rule type, and its formula for the text `q` (a string literal) in cell `at`. */
const TEXT_RULES: Record<string, { type: string; formula: (q: string, at: string) => string }> = {
  TEXT_CONTAINS: { type: 'containsText', formula: (q, at) => `NOT(ISERROR(SEARCH(${q},${at})))` },
  TEXT_DOES_NOT_CONTAIN: { type: 'notContainsText', formula: (q, at) => `ISERROR(SEARCH(${q},${at}))` },
  TEXT_STARTS_WITH: { type: 'beginsWith', formula: (q, at) => `LEFT(${at},LEN(${q}))=${q}` },
  TEXT_ENDS_WITH: { type: 'endsWith', formula: (q, at) => `RIGHT(${at},LEN(${q}))=${q}` },
};

/** The empty-cell conditions: Excel's rule type and formula. */
const BLANK_RULES: Record<string, { type: string; formula: (at: string) => string }> = {
  CELL_EMPTY: { type: 'containsBlanks', formula: (at) => `LEN(TRIM(${at}))=0` },
  CELL_NOT_EMPTY: { type: 'notContainsBlanks', formula: (at) => `LEN(TRIM(${at}))>0` },
};

/** Excel's operator attribute for each text rule type (exceljs writes the type instead). */
const TEXT_OPERATORS: Record<string, string> = {
  containsText: 'containsText',
  notContainsText: 'notContains',
  beginsWith: 'beginsWith',
  endsWith: 'endsWith',
};

/** A formula's string literal. */
function quoted(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/** The text of a formula's first string literal, or null. */
function firstLiteral(formula: string): string | null {
  const m = /"((?:[^"]|"")*)"/.exec(formula);
  return m ? m[1].replace(/""/g, '"') : null;
}

/**
 * Excel's rule for a boolean condition on a range whose top-left cell is `at` (the cell its formula
 * is written for, as Excel does), with its format; null for a condition it does not write.
 */
export function conditionForXlsx(
  criteria: string,
  values: unknown[],
  at: string,
  style: ExcelJS.Style,
): ExcelJS.ConditionalFormattingRule | null {
  const rule = (x: Record<string, unknown>) => ({ ...x, style, priority: 1 }) as unknown as ExcelJS.ConditionalFormattingRule;
  const op = CELL_IS[criteria];
  if (op) return rule({ type: 'cellIs', operator: op, formulae: values.map((v) => String(v)) });
  if (criteria === 'TEXT_EQUAL_TO') return rule({ type: 'cellIs', operator: 'equal', formulae: [quoted(String(values[0] ?? ''))] });
  const text = TEXT_RULES[criteria];
  if (text) return rule({ type: 'containsText', operator: text.type, formulae: [text.formula(quoted(String(values[0] ?? '')), at)] });
  const blank = BLANK_RULES[criteria];
  if (blank) return rule({ type: 'containsText', operator: blank.type, formulae: [blank.formula(at)] });
  if (criteria === 'CUSTOM_FORMULA') return rule({ type: 'expression', formulae: [String(values[0] ?? '').replace(/^=/, '')] });
  return null;
}

/** The boolean condition of an Excel rule as exceljs reads it; null for a rule that holds none of them. */
export function conditionFromXlsx(x: ExcelJS.ConditionalFormattingRule): { criteria: string; values: unknown[] } | null {
  const r = x as unknown as { type: string; operator?: string; formulae?: unknown[] };
  const formulae = (r.formulae ?? []).map(String);
  if (r.type === 'cellIs') {
    const literal = formulae.length === 1 && /^"(?:[^"]|"")*"$/.test(formulae[0]) ? firstLiteral(formulae[0]) : null;
    if (r.operator === 'equal' && literal !== null) return { criteria: 'TEXT_EQUAL_TO', values: [literal] };
    const criteria = Object.keys(CELL_IS).find((k) => CELL_IS[k] === r.operator);
    if (!criteria) return null;
    return { criteria, values: formulae.map((v) => (v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : v)) };
  }
  if (r.type === 'expression') return formulae.length ? { criteria: 'CUSTOM_FORMULA', values: ['=' + formulae[0]] } : null;
  // exceljs reads a text or blanks rule's type as its operator (and `containsText` as the type).
  const kind = r.type === 'containsText' ? r.operator : r.type;
  const text = Object.keys(TEXT_RULES).find((k) => TEXT_RULES[k].type === kind);
  if (text) {
    const t = formulae.length ? firstLiteral(formulae[0]) : null;
    return t === null ? null : { criteria: text, values: [t] };
  }
  const blank = Object.keys(BLANK_RULES).find((k) => BLANK_RULES[k].type === kind);
  return blank ? { criteria: blank, values: [] } : null;
}

/**
 * Excel's attributes for a saved rule of `type` (as exceljs wrote it) whose formula reads `formula`:
 * the operator Excel's schema has (none for blanks, `notContains` for does-not-contain) and, for a
 * text rule, the `text` attribute that Excel's and LibreOffice's rule dialogs show; null for other
 * types (left as exceljs wrote them).
 */
export function excelRuleAttributes(type: string, formula: string | undefined): { operator?: string; text?: string } | null {
  if (Object.values(BLANK_RULES).some((b) => b.type === type)) return {};
  const operator = TEXT_OPERATORS[type];
  if (!operator) return null;
  const text = formula === undefined ? null : firstLiteral(formula);
  return text === null ? { operator } : { operator, text };
}
