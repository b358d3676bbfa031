/** Argument and name checks the Spreadsheet objects share, with Google's messages (or, where marked, chosen ones). */
import { Ctx } from './context';
import { SheetModel } from './model';

/** Sheets' rules for range names. */
export function isValidRangeName(name: string): boolean {
  if (typeof name !== 'string' || name.length < 1 || name.length > 250) return false;
  if (!/^[\p{L}_][\p{L}\p{N}_]*$/u.test(name)) return false;
  if (/^(true|false)/i.test(name)) return false; // Google: must not start with the words "true" or "false"
  if (/^[A-Za-z]{1,3}\d+$/.test(name)) return false; // A1-like
  if (/^[Rr]\d*[Cc]\d*$/.test(name)) return false; // R1C1-like
  return true;
}

export function typeName(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'Object[]';
  if (typeof v === 'string') return 'String';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'Boolean';
  return 'Object';
}

export function invalidNameMessage(name: string): string {
  // Chosen wording; Sheets' UI says the name must follow these rules.
  return `Invalid range name "${name}". Names may contain only letters, numbers and underscores, must be 1-250 characters, must not start with a number or the words "true" or "false", and must not look like a cell reference (A1 or R1C1).`;
}

/** Longest sheet (tab) name Sheets accepts. */
export const MAX_SHEET_NAME_LENGTH = 100;

export function checkSheetName(ctx: Ctx, name: string, self: SheetModel | null): void {
  const wb = ctx.wb;
  // Chosen wording for the empty name.
  if (name.trim() === '') throw ctx.error('Sheet names cannot be empty.');
  // Sheets caps a tab's name at 100 characters (UTF-16 units, as the UI counts); wording chosen.
  if (name.length > MAX_SHEET_NAME_LENGTH) throw ctx.error(`The sheet name cannot be longer than ${MAX_SHEET_NAME_LENGTH} characters.`);
  const other = wb.sheetByNameCi(name);
  if (other && other !== self) throw ctx.error(`A sheet with the name "${name}" already exists. Please enter another name.`);
}
