/**
 * Benchmark of the scan engine alone (no HTTP, no database): catalog load time and processRow
 * throughput in products per minute on this machine, over rows drawn from the sample catalog.
 * Wired into `npm run bench` by bench/run.ts; `npx tsx bench/service-engine.ts` runs it alone.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCatalog, readCatalogRecords, SAMPLE_CATALOG_PATH } from '../emulator/service/catalog/index';
import type { CatalogRecord } from '../emulator/service/catalog/format';
import { createEngine } from '../emulator/service/engine/index';
import type { AccountRules, ScanAttributes } from '../emulator/service/engine/types';
import { runAlone } from './run-alone';

export async function benchEngine(): Promise<Record<string, number | string>> {
  let t = performance.now();
  const catalog = loadCatalog(SAMPLE_CATALOG_PATH);
  const loadMs = performance.now() - t;
  const engine = createEngine(catalog);

  // Rows: every US identifier (UPC, EAN, ISBN, GTIN, JAN) with a cost, as a supplier list would carry them.
  const us: CatalogRecord[] = readCatalogRecords(SAMPLE_CATALOG_PATH).filter((r) => r.marketplace_id === 1);
  const rows: string[][] = [];
  for (const r of us)
    for (const list of Object.values(r.identifiers))
      for (const id of list ?? []) rows.push([id, '$' + (((r.buybox_price ?? 1000) * 0.4) / 100).toFixed(2), '2', '5%']);
  const attrs: ScanAttributes = {
    mapping: { id: 0, cost: 1, supplier_pack_quantity: 2, discount_per_product: 3 },
    options: {
      marketplace_id: 'US',
      name: 'bench',
      discount_supplier: 300,
      prep_cost: 25,
      pull_historical_data: true,
      multipack_prep_cost: { enabled: true, firstN: 2, costForFirstN: 10, costForRest: 5 },
    },
  };
  const rules: AccountRules = {
    blockedBrands: new Set(['Acme']),
    blockedAsins: new Set(),
    multipackCorrections: new Map([[us[0].asin, 3]]),
    listingMatches: new Map(),
  };

  // One warm-up pass (JIT), then three timed passes over all rows; the median pass is reported.
  let products = 0;
  let errors = 0;
  const passMs: number[] = [];
  for (let pass = 0; pass < 4; pass++) {
    products = 0;
    errors = 0;
    const start = performance.now();
    for (let i = 0; i < rows.length; i++) {
      const out = engine.processRow(rows[i], i + 2, attrs, 1, rules);
      products += out.products.length;
      if (out.error) errors++;
    }
    if (pass > 0) passMs.push(performance.now() - start);
  }
  const ms = passMs.sort((a, b) => a - b)[1];

  const csv = readFileSync(join(__dirname, '..', 'samples', 'supplier-price-list.csv'));
  const xlsx = readFileSync(join(__dirname, '..', 'samples', 'supplier-price-list.xlsx'));
  t = performance.now();
  await engine.parseUpload(csv, 'supplier-price-list.csv', 'text/csv');
  const csvMs = performance.now() - t;
  t = performance.now();
  await engine.parseUpload(xlsx, 'supplier-price-list.xlsx', '');
  const xlsxMs = performance.now() - t;

  return {
    'engine: catalog products': catalog.size(),
    'engine: catalog load (ms)': Math.round(loadMs),
    'engine: rows processed': rows.length,
    'engine: products out': products,
    'engine: error rows': errors,
    'engine: processRow products per minute': Math.round((products / ms) * 60000),
    'engine: processRow rows per minute': Math.round((rows.length / ms) * 60000),
    'engine: parse 300-row CSV (ms)': Math.round(csvMs * 10) / 10,
    'engine: parse 300-row XLSX (ms)': Math.round(xlsxMs * 10) / 10,
  };
}

if (require.main === module) runAlone(benchEngine);
