/**
 * Checks the upload's `attributes` (document 2.1) and says every problem at once, in plain words.
 * The rules mirror the `ScanAttributes` schema of the API description (scans.yaml).
 */
import { MARKETPLACES, type Marketplace } from '../../../contract/marketplaces';
import type { RowError } from '../shared/errors';
import { MAPPING_COLUMNS, type ScanAttributes } from '../engine/types';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

const OPTION_KEYS = [
  'marketplace_id',
  'name',
  'discount_supplier',
  'custom_columns',
  'header',
  'multipack_prep_cost',
  'prep_cost',
  'multipack_override',
  'multipack_override_quantity',
  'pull_historical_data',
];
const MAX_CUSTOM_COLUMNS = 20;

export interface CheckedAttributes {
  attributes: ScanAttributes;
  marketplace: Marketplace;
}

/**
 * `width`: the widest row of the file (columns), to catch a mapping beyond it. Returns the problems
 * (field names like `attributes.mapping.cost`), or the attributes when there are none.
 */
export function checkAttributes(raw: unknown, width: number | undefined): { problems: RowError[]; checked?: CheckedAttributes } {
  const problems: RowError[] = [];
  const bad = (field: string, message: string) => problems.push({ index: 0, field: `attributes.${field}`, message });
  if (!isObj(raw)) {
    bad('', 'attributes must be a JSON object with "mapping" and "options".');
    return { problems };
  }
  for (const k of Object.keys(raw))
    if (k !== 'mapping' && k !== 'options') bad(k, `Unknown member "${k}"; attributes has only "mapping" and "options".`);
  const { mapping, options } = raw;

  const column = (field: string, v: unknown) => {
    if (!isInt(v) || v < 0) return bad(`mapping.${field}`, `mapping.${field} must be a 0-indexed column number (an integer 0 or greater).`);
    if (width !== undefined && v >= width)
      bad(
        `mapping.${field}`,
        `mapping.${field} is column ${v}, but the file has only ${width} column${width === 1 ? '' : 's'} (0 to ${width - 1}).`,
      );
  };
  if (!isObj(mapping)) bad('mapping', 'mapping is required: an object of 0-indexed column numbers with at least "id" and "cost".');
  else {
    for (const k of Object.keys(mapping))
      if (!(MAPPING_COLUMNS as readonly string[]).includes(k) && k !== 'custom_columns')
        bad(`mapping.${k}`, `Unknown mapping member "${k}".`);
    for (const k of ['id', 'cost'])
      if (mapping[k] === undefined)
        bad(`mapping.${k}`, `mapping.${k} is required (the column of the ${k === 'id' ? 'product identifier' : 'unit cost'}).`);
    for (const k of MAPPING_COLUMNS) if (mapping[k] !== undefined) column(k, mapping[k]);
    const cc = mapping.custom_columns;
    if (cc !== undefined) {
      if (!Array.isArray(cc)) bad('mapping.custom_columns', 'mapping.custom_columns must be an array of column numbers.');
      else if (cc.length > MAX_CUSTOM_COLUMNS)
        bad('mapping.custom_columns', `mapping.custom_columns may list at most ${MAX_CUSTOM_COLUMNS} columns.`);
      else cc.forEach((v, i) => column(`custom_columns.${i}`, v));
    }
  }

  let marketplace: Marketplace | undefined;
  if (!isObj(options)) bad('options', 'options is required: an object with at least "marketplace_id" and "name".');
  else {
    for (const k of Object.keys(options)) if (!OPTION_KEYS.includes(k)) bad(`options.${k}`, `Unknown option "${k}".`);
    const mp = options.marketplace_id;
    if (mp === undefined) bad('options.marketplace_id', 'options.marketplace_id is required: a marketplace code such as US.');
    else if (typeof mp !== 'string') bad('options.marketplace_id', 'options.marketplace_id must be a marketplace code (text) such as US.');
    else {
      marketplace = MARKETPLACES.find((m) => m.code === mp);
      if (!marketplace)
        bad('options.marketplace_id', `Unknown marketplace "${mp}". Known codes: ${MARKETPLACES.map((m) => m.code).join(', ')}.`);
    }
    const name = options.name;
    if (name === undefined) bad('options.name', 'options.name is required: the name of the scan.');
    else if (typeof name !== 'string' || name.trim() === '') bad('options.name', 'options.name must be a non-empty text.');
    else if (name.length > 255) bad('options.name', 'options.name may have at most 255 characters.');
    const bool = (k: string) => {
      if (options[k] !== undefined && typeof options[k] !== 'boolean') bad(`options.${k}`, `options.${k} must be true or false.`);
    };
    const int = (k: string, min: number, max: number, unit: string) => {
      const v = options[k];
      if (v !== undefined && (!isInt(v) || v < min || v > max))
        bad(`options.${k}`, `options.${k} must be an integer from ${min} to ${max} (${unit}).`);
    };
    bool('header');
    bool('multipack_override');
    bool('pull_historical_data');
    int('discount_supplier', 0, 10000, 'basis points; 1000 = 10%');
    int('prep_cost', 0, 1_000_000, 'cents per unit');
    int('multipack_override_quantity', 1, 10_000, 'units per order');
    if (options.multipack_override === true && options.multipack_override_quantity === undefined)
      bad('options.multipack_override_quantity', 'options.multipack_override_quantity is required when multipack_override is true.');
    const mpc = options.multipack_prep_cost;
    if (mpc !== undefined) {
      if (!isObj(mpc))
        bad(
          'options.multipack_prep_cost',
          'options.multipack_prep_cost must be an object with enabled, firstN, costForFirstN and costForRest.',
        );
      else {
        for (const k of Object.keys(mpc))
          if (!['enabled', 'firstN', 'costForFirstN', 'costForRest'].includes(k))
            bad(`options.multipack_prep_cost.${k}`, `Unknown member "${k}".`);
        if (typeof mpc.enabled !== 'boolean')
          bad('options.multipack_prep_cost.enabled', 'options.multipack_prep_cost.enabled must be true or false.');
        for (const k of ['firstN', 'costForFirstN', 'costForRest'])
          if (!isInt(mpc[k]) || (mpc[k] as number) < 0)
            bad(
              `options.multipack_prep_cost.${k}`,
              `options.multipack_prep_cost.${k} must be an integer 0 or greater${k === 'firstN' ? ' (units)' : ' (cents per unit)'}.`,
            );
      }
    }
    const names = options.custom_columns;
    if (names !== undefined) {
      if (!Array.isArray(names) || names.some((n) => typeof n !== 'string'))
        bad('options.custom_columns', 'options.custom_columns must be an array of column names (text).');
      else {
        const cols = isObj(mapping) && Array.isArray(mapping.custom_columns) ? mapping.custom_columns.length : 0;
        if (names.length !== cols)
          bad(
            'options.custom_columns',
            `options.custom_columns names ${names.length} column(s) but mapping.custom_columns maps ${cols}; they must match one to one.`,
          );
      }
    }
  }
  if (problems.length || !marketplace) return { problems };
  return { problems, checked: { attributes: raw as unknown as ScanAttributes, marketplace } };
}
