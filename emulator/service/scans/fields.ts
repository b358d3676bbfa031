/**
 * Field names of result rows, derived from the API description (`ScanProduct`, `ScanErrorRow`) so
 * that what the description documents is exactly what filters, sorts and download columns accept.
 */
import { loadApiDocument } from '../../../contract/openapi';

export type FieldKind = 'number' | 'string' | 'boolean';
export interface ScalarField {
  /** Dotted name as clients write it, e.g. `financials.profit`. */
  name: string;
  kind: FieldKind;
}
/** A download column: a scalar or an array/object leaf of the product, by dotted name. */
export interface ColumnField {
  name: string;
  kind: FieldKind | 'array' | 'object';
}

type Schema = Record<string, any>;

function resolve(doc: Schema, s: Schema): Schema {
  if (s && typeof s.$ref === 'string') {
    const name = s.$ref.replace('#/components/schemas/', '');
    return resolve(doc, doc.components.schemas[name]);
  }
  return s;
}

function kindOf(s: Schema): FieldKind | 'array' | 'object' | undefined {
  const types: string[] = Array.isArray(s.type) ? s.type : [s.type];
  const t = types.find((x) => x !== 'null');
  if (t === 'integer' || t === 'number') return 'number';
  if (t === 'string' || t === 'boolean' || t === 'array' || t === 'object') return t;
  return undefined;
}

function walk(doc: Schema, schema: Schema, prefix: string, out: ColumnField[]): void {
  for (const [key, raw] of Object.entries<Schema>(schema.properties ?? {})) {
    const s = resolve(doc, raw);
    const name = prefix + key;
    const kind = kindOf(s);
    if (kind === 'object' && s.properties) walk(doc, s, name + '.', out);
    else if (kind) out.push({ name, kind });
  }
}

export interface ResultFields {
  /** Download columns of products, in description order. */
  productColumns: ColumnField[];
  /** Filterable and sortable fields of products, by name (aliases included). */
  product: Map<string, ScalarField>;
  errorColumns: ColumnField[];
  error: Map<string, ScalarField>;
}

/** `profit`, `margin` and `roi` appear bare in the document's examples. */
const ALIASES: Record<string, string> = { profit: 'financials.profit', margin: 'financials.margin', roi: 'financials.roi' };

let cached: ResultFields | undefined;

export function resultFields(): ResultFields {
  if (cached) return cached;
  const doc = loadApiDocument();
  const productColumns: ColumnField[] = [];
  walk(doc, doc.components.schemas.ScanProduct, '', productColumns);
  const errorColumns: ColumnField[] = [];
  walk(doc, doc.components.schemas.ScanErrorRow, '', errorColumns);
  const scalars = (cols: ColumnField[]) =>
    new Map(cols.filter((c) => c.kind !== 'array' && c.kind !== 'object').map((c) => [c.name, c as ScalarField]));
  const product = scalars(productColumns);
  for (const [alias, target] of Object.entries(ALIASES)) product.set(alias, { ...product.get(target)!, name: target });
  cached = { productColumns, product, errorColumns, error: scalars(errorColumns) };
  return cached;
}
