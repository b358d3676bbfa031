/** Supplier price lists for the benchmarks, made from the sample catalog's US products. */
import { readCatalogRecords, SAMPLE_CATALOG_PATH } from '../emulator/service/catalog';

/** The first identifier of each US product of the sample catalog, in catalog order. */
export function usIdentifiers(): string[] {
  const ids: string[] = [];
  for (const p of readCatalogRecords(SAMPLE_CATALOG_PATH)) {
    if (p.marketplace_id !== 1) continue;
    const id = Object.values<string[] | undefined>(p.identifiers ?? {}).find((l) => l && l.length)?.[0];
    if (id) ids.push(id);
  }
  return ids;
}

/** A CSV of `lines` rows (identifier, cost[, SKU]), identifiers repeated when the catalog runs out. */
export function priceListCsv(lines: number, opts: { sku?: boolean; eol?: string } = {}): string {
  const ids = usIdentifiers();
  const eol = opts.eol ?? '\n';
  const out = [opts.sku ? 'UPC,Cost,SKU' : 'UPC,Cost'];
  for (let i = 0; i < lines; i++) {
    const cost = (((i * 7919) % 4000) / 100 + 1).toFixed(2);
    out.push(`${ids[i % ids.length]},${cost}` + (opts.sku ? `,SKU-${i}` : ''));
  }
  return out.join(eol) + eol;
}
