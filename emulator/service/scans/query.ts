/**
 * Filters and sorts of scan results (document 2.2, 4.1) turned into SQL over the JSON rows.
 * Field names come from a whitelist (fields.ts), so they are safe to write into SQL; values are bound.
 */
import { ApiError } from '../shared/errors';
import type { RowError } from '../shared/errors';
import { resultFields, type ScalarField } from './fields';

export type TableType = 'products' | 'errors';
export interface FilterItem {
  name: unknown;
  operator: unknown;
  value: unknown;
}

const OPERATORS = ['>', '>=', '<', '<=', '=', '!='];

export interface RowQuery {
  /** SQL condition after `scan_id = ?`, starting with ` AND` or empty. */
  where: string;
  params: unknown[];
  orderBy: string;
}

function fieldsOf(table: TableType): Map<string, ScalarField> {
  const f = resultFields();
  return table === 'products' ? f.product : f.error;
}

/** SQL for a field: the id column, or the JSON member. */
function expr(field: ScalarField): string {
  return field.name === 'id' ? 'id' : `json_extract(data, '$.${field.name}')`;
}

function unknownField(table: TableType, name: string): string {
  const known = [...fieldsOf(table).keys()];
  return `Unknown field "${name}" for ${table}. Known fields: ${known.join(', ')}.`;
}

export function buildRowQuery(table: TableType, filter: FilterItem[] | undefined, sort: string | undefined): RowQuery {
  const fields = fieldsOf(table);
  const errors: RowError[] = [];
  const conds: string[] = [];
  const params: unknown[] = [];
  (filter ?? []).forEach((item, index) => {
    const name = String(item.name);
    const field = fields.get(name);
    const op = String(item.operator);
    if (!field) return errors.push({ index, field: `filter.${index}.name`, message: unknownField(table, name) });
    if (!OPERATORS.includes(op))
      return errors.push({
        index,
        field: `filter.${index}.operator`,
        message: `Unknown operator "${op}". Operators: ${OPERATORS.join(' ')}.`,
      });
    const v = item.value;
    if (v === null) {
      if (op !== '=' && op !== '!=')
        return errors.push({ index, field: `filter.${index}.value`, message: `null can only be compared with = or !=.` });
      conds.push(`${expr(field)} IS ${op === '=' ? '' : 'NOT '}NULL`);
      return;
    }
    if (field.kind !== 'number' && op !== '=' && op !== '!=')
      return errors.push({
        index,
        field: `filter.${index}.operator`,
        message: `${field.name} is a ${field.kind} field: only = and != apply.`,
      });
    const ok =
      (field.kind === 'number' && typeof v === 'number' && Number.isFinite(v)) ||
      (field.kind === 'string' && typeof v === 'string') ||
      (field.kind === 'boolean' && typeof v === 'boolean');
    if (!ok)
      return errors.push({
        index,
        field: `filter.${index}.value`,
        message: `${field.name} is a ${field.kind} field: the value must be a ${field.kind}.`,
      });
    // json_extract gives 1/0 for JSON true/false. A null member never matches a comparison (SQL NULL).
    conds.push(`${expr(field)} ${op === '=' ? '=' : op === '!=' ? '<>' : op} ?`);
    params.push(typeof v === 'boolean' ? (v ? 1 : 0) : v);
  });
  let orderBy = 'id';
  if (sort !== undefined && sort !== '') {
    const desc = sort.startsWith('-');
    const name = desc ? sort.slice(1) : sort;
    const field = fields.get(name);
    if (!field) errors.push({ index: 0, field: 'sort', message: unknownField(table, name) });
    else {
      const e = expr(field);
      // Nulls last in both directions; ties keep upload order.
      orderBy = field.name === 'id' ? `id ${desc ? 'DESC' : 'ASC'}` : `(${e} IS NULL), ${e} ${desc ? 'DESC' : 'ASC'}, id`;
    }
  }
  if (errors.length) throw new ApiError(422, errors.map((e) => e.message).join(' '), { errors });
  return { where: conds.map((c) => ` AND ${c}`).join(''), params, orderBy };
}
