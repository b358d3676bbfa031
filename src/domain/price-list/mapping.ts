/**
 * Which sheet column plays which part in a scan: the one shape shared by header.ts (suggestion),
 * the sidebar (user's choice) and prepare.ts (rows to send). Column numbers are 0-based indexes into
 * the values block that was read (not sheet columns, not CSV columns).
 */

/** A role a column can play. Unique per scan, except 'custom' (any number) and 'ignore'. */
/** Every role a price-list column can have, in the order the form offers them. */
export const COLUMN_ROLES = [
  'identifier',
  'cost',
  'sku',
  'map',
  'stock',
  'pack_quantity',
  'image',
  'discount',
  'custom',
  'ignore',
] as const;
export type ColumnRole = (typeof COLUMN_ROLES)[number];

/** Name of the custom column prepare.ts adds to the upload, carrying each row's sheet row number. */
export const SHEET_ROW_COLUMN = 'Sheet row';

export const UNIQUE_ROLES: readonly ColumnRole[] = ['identifier', 'cost', 'sku', 'map', 'stock', 'pack_quantity', 'image', 'discount'];

export interface ColumnMapping {
  identifier: number;
  cost: number;
  sku?: number;
  map?: number;
  stock?: number;
  pack_quantity?: number;
  image?: number;
  discount?: number;
  /** Extra columns carried through the scan, in this order. */
  custom?: number[];
}

/**
 * A mapping from per-column roles (as the sidebar's dropdowns hold them: roles[i] is column i's role).
 * Returns the problems instead when a unique role is chosen twice or identifier/cost is missing.
 */
export function mappingFromRoles(
  roles: readonly ColumnRole[],
  /** Sheet column (1-based) of index 0, so that messages name real columns. */
  firstSheetColumn = 1,
): { ok: true; mapping: ColumnMapping } | { ok: false; errors: string[] } {
  const letter = (i: number) => columnLetter(firstSheetColumn - 1 + i);
  const errors: string[] = [];
  const seen: Partial<Record<ColumnRole, number>> = {};
  const custom: number[] = [];
  roles.forEach((role, i) => {
    if (role === 'custom') custom.push(i);
    else if (role !== 'ignore') {
      if (seen[role] !== undefined)
        errors.push('Two columns are set as ' + roleLabel(role) + ' (' + letter(seen[role]!) + ' and ' + letter(i) + ').');
      else seen[role] = i;
    }
  });
  if (seen.identifier === undefined) errors.push('Choose the column with the product identifiers (UPC, EAN, ASIN...).');
  if (seen.cost === undefined) errors.push('Choose the column with the cost.');
  if (errors.length) return { ok: false, errors };
  const mapping: ColumnMapping = { identifier: seen.identifier!, cost: seen.cost! };
  for (const r of UNIQUE_ROLES) {
    if (r === 'identifier' || r === 'cost') continue;
    if (seen[r] !== undefined) (mapping as unknown as Record<string, number>)[r] = seen[r]!;
  }
  if (custom.length) mapping.custom = custom;
  return { ok: true, mapping };
}

/** Words for a role, for the sidebar and messages. */
export function roleLabel(role: ColumnRole): string {
  switch (role) {
    case 'identifier':
      return 'Identifier';
    case 'cost':
      return 'Cost';
    case 'sku':
      return 'SKU';
    case 'map':
      return 'MAP';
    case 'stock':
      return 'Stock';
    case 'pack_quantity':
      return 'Pack quantity';
    case 'image':
      return 'Image';
    case 'discount':
      return 'Discount';
    case 'custom':
      return 'Custom column';
    case 'ignore':
      return 'Not used';
  }
}

/** Column letters of a 0-based column number: 0 -> "A", 26 -> "AA". */
export function columnLetter(index: number): string {
  let n = index + 1;
  let s = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    s = String.fromCharCode(65 + r) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}
