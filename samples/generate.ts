/**
 * Writes the sample supplier price lists from the shipped sample catalog (US marketplace):
 *   samples/supplier-price-list.csv, samples/supplier-price-list.xlsx (same rows, with messy ones),
 *   samples/tiny.csv (10 clean rows), and the table of messy rows in samples/README.md.
 * `npx tsx samples/generate.ts` rewrites them byte-identical on every run (see withFixedClock for the XLSX).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import type { CatalogRecord } from '../emulator/service/catalog/format';
import { SAMPLE_CATALOG_PATH } from '../emulator/service/catalog/index';
import { Prng } from '../emulator/service/catalog/prng';
import { isValidGtin, withCheckDigit } from '../emulator/service/engine/ident';

export const SAMPLES_DIR = __dirname;
export const HEADERS = ['Item Code', 'UPC', 'Description', 'Unit Cost', 'MSRP/MAP', 'Qty Avail', 'Case Pack'];
/** Column numbers for an upload's mapping (0-indexed): id = UPC, cost = Unit Cost, ... */
export const COLUMNS = { item_code: 0, upc: 1, description: 2, cost: 3, map: 4, stock: 5, case_pack: 6 } as const;

type Cell = string | number | null;
/** What a scan of the row must give (checked by test/service/engine/samples.test.ts). */
export interface Expectation {
  error?: string;
  blank?: true;
  /** number of products */
  products?: number;
  /** inputs.cost of the products, cents */
  cost?: number;
  /** a flag or error code every product carries */
  code?: string;
}
/** One data row: cells as the XLSX stores them, text as the CSV carries it, and what it tests. */
export interface SampleRow {
  xlsx: Cell[];
  csv: string[];
  /** Present on messy rows: what is odd about it and what the scan does with it. */
  messy?: { what: string; outcome: string; expect: Expectation };
}

function readUsCatalog(): CatalogRecord[] {
  const text = gunzipSync(readFileSync(SAMPLE_CATALOG_PATH)).toString('utf8');
  return text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as CatalogRecord).filter((r) => r.marketplace_id === 1);
}

/** A supplier's description: the marketplace title without the brand in front. */
const bare = (r: CatalogRecord) => (r.brand && r.title.startsWith(r.brand + ' ') ? r.title.slice(r.brand.length + 1) : r.title);
const money = (cents: number) => (cents / 100).toFixed(2);
/** What a CSV export shows for a number cell (no trailing zeros, like the spreadsheet's General format). */
const general = (n: number) => String(Number(n.toPrecision(15)));

export function buildSampleRows(): { rows: SampleRow[]; tiny: string[][] } {
  const us = readUsCatalog();
  const p = new Prng('samples/supplier-price-list/1');
  const upcOf = (r: CatalogRecord) => r.identifiers.upc?.[0];
  const byUpc = new Map<string, CatalogRecord[]>();
  for (const r of us) {
    const u = upcOf(r);
    if (u) byUpc.set(u, [...(byUpc.get(u) ?? []), r]);
  }
  const plain = us.filter((r) => upcOf(r) && byUpc.get(upcOf(r)!)!.length === 1 && r.market_pack_quantity === 1 && r.fees_available && r.buybox_price !== null && r.brand !== null);
  const find = (pred: (r: CatalogRecord) => boolean, what: string) => {
    const r = us.find(pred);
    if (!r) throw new Error(`sample catalog has no ${what}`);
    return r;
  };
  let sku = 10000;
  const regular = (r: CatalogRecord, upcCell: Cell, upcText: string, costCell: Cell, costText: string, messy?: SampleRow['messy']): SampleRow => {
    sku++;
    const map = p.chance(0.6) ? Math.round((r.buybox_price ?? 1000) * p.int(85, 100) / 100) : null;
    const qty = p.chance(0.9) ? p.int(0, 2400) : null;
    const pack = p.pick([6, 12, 12, 24, 48]);
    const title = bare(r);
    return {
      xlsx: [`SKU-${sku}`, upcCell, title, costCell, map === null ? null : map / 100, qty, pack],
      csv: [`SKU-${sku}`, upcText, title, costText, map === null ? '' : general(map / 100), qty === null ? '' : String(qty), String(pack)],
      messy,
    };
  };
  const clean = (r: CatalogRecord, messy?: SampleRow['messy']) => {
    const upc = upcOf(r)!;
    const cost = Math.round((r.buybox_price! * p.int(28, 55)) / 100);
    // A numeric UPC column: the spreadsheet drops leading zeros, in the workbook and in its CSV export.
    return regular(r, Number(upc), String(Number(upc)), cost / 100, general(cost / 100), messy);
  };

  const rows: SampleRow[] = [];
  let next = 0;
  const pool = plain.filter((_, i) => i % 7 === 3);
  const take = () => pool[next++];
  const leadingZero = plain.filter((r, i) => i % 7 !== 3 && upcOf(r)!.startsWith('00'))[0];
  const special: Array<() => SampleRow> = [
    () => clean(leadingZero, { what: `UPC ${upcOf(leadingZero)} stored as a number, so it lost its two leading zeros (${Number(upcOf(leadingZero))})`, outcome: 'found: leading zeros are restored (flag identifier_padded)', expect: { products: 1, code: 'identifier_padded' } }),
    () => {
      const r = find((x) => !!x.identifiers.ean && /^0[1-9]/.test(x.identifiers.ean[0]) && !x.identifiers.isbn && byUpc.get(upcOf(x) ?? '')?.length === 1 && !isValidGtin(String(Number(Number(x.identifiers.ean[0]).toPrecision(6)))), 'EAN');
      const ean = r.identifiers.ean![0];
      const sci = Number(ean).toExponential(5).replace(/\.?0+e/, 'e').replace('e+', 'E+'); // as the spreadsheet shows it: 6.094E+11
      const lost = Number(Number(ean).toPrecision(6));
      return regular(r, lost, sci, 9.99, '9.99', { what: `EAN ${ean} shown in scientific notation (${sci}); the workbook keeps only ${lost}`, outcome: 'error invalid_identifier (digits lost)', expect: { error: 'invalid_identifier' } });
    },
    () => {
      const r = take();
      return regular(r, Number(upcOf(r)), upcOf(r)!.replace(/^0+/, ''), '$1,299.00', '$1,299.00', { what: 'cost written "$1,299.00"', outcome: 'cost 129900 cents', expect: { products: 1, cost: 129900 } });
    },
    () => {
      const r = take();
      return regular(r, Number(upcOf(r)), upcOf(r)!.replace(/^0+/, ''), '1.299,00 €', '1.299,00 €', { what: 'cost written "1.299,00 €" (European separators)', outcome: 'cost 129900 cents', expect: { products: 1, cost: 129900 } });
    },
    () => {
      const r = take();
      return regular(r, Number(upcOf(r)), upcOf(r)!.replace(/^0+/, ''), 12.5, '12.5', { what: 'cost "12.5" (one decimal)', outcome: 'cost 1250 cents', expect: { products: 1, cost: 1250 } });
    },
    () => ({ xlsx: [], csv: [], messy: { what: 'blank row', outcome: 'skipped (neither product nor error)', expect: { blank: true } } }),
    () => ({ xlsx: [], csv: [], messy: { what: 'blank row', outcome: 'skipped (neither product nor error)', expect: { blank: true } } }),
    () => {
      const r = take();
      const row = regular(r, null, '', 14.25, '14.25', { what: 'no identifier (UPC cell empty)', outcome: 'error missing_identifier', expect: { error: 'missing_identifier' } });
      return row;
    },
    () => {
      const r = take();
      return regular(r, Number(upcOf(r)), upcOf(r)!.replace(/^0+/, ''), 'call', 'call', { what: 'cost "call"', outcome: 'error invalid_cost', expect: { error: 'invalid_cost' } });
    },
    () => {
      const r = take();
      return regular(r, Number(upcOf(r)), upcOf(r)!.replace(/^0+/, ''), null, '', { what: 'cost empty', outcome: 'error invalid_cost', expect: { error: 'invalid_cost' } });
    },
    () => {
      const r = pool[0];
      return clean(r, { what: `duplicate of the first data row (UPC ${upcOf(r)}) with another cost`, outcome: 'found again: duplicates are scanned as separate rows', expect: { products: 1 } });
    },
    () => {
      const r = take();
      const row = clean(r, { what: 'description with a comma, double quotes and a line break', outcome: 'found; the CSV field is quoted', expect: { products: 1 } });
      row.xlsx[2] = row.csv[2] = 'Gift set, "deluxe" edition\nincludes 2 refills';
      return row;
    },
    () => {
      const r = take();
      const row = clean(r, { what: 'description starting with "=" (formula-injection bait)', outcome: 'found; the text is kept as text, never evaluated', expect: { products: 1 } });
      row.xlsx[2] = row.csv[2] = '=HYPERLINK("https://evil.example/","click me")';
      return row;
    },
    () => {
      const r = take();
      let unknown = '';
      for (let i = 0; ; i++) {
        unknown = withCheckDigit('09999900' + String(i).padStart(3, '0'));
        if (!byUpc.has(unknown)) break;
      }
      return regular(r, unknown, unknown, 4.5, '4.5', { what: `UPC ${unknown} (valid check digit, not in the catalog)`, outcome: 'error not_found', expect: { error: 'not_found' } });
    },
    () => {
      const r = take();
      const bad = upcOf(r)!.slice(0, 11) + String((Number(upcOf(r)!.slice(11)) + 1) % 10);
      return regular(r, bad, bad, 6.75, '6.75', { what: `UPC ${bad} with a wrong check digit`, outcome: 'error invalid_identifier', expect: { error: 'invalid_identifier' } });
    },
    () => {
      const multi = [...byUpc.entries()].find(([u, l]) => l.length >= 2 && !u.startsWith('0') && l.some((x) => x.market_pack_quantity > 1))!;
      const r = multi[1].find((x) => x.market_pack_quantity === 1) ?? multi[1][0];
      const cost = Math.round(((r.buybox_price ?? 1000) * 45) / 100);
      return regular(r, Number(multi[0]), multi[0], cost / 100, general(cost / 100), { what: `UPC ${multi[0]} is on ${multi[1].length} ASINs (${multi[1].map((x) => `${x.asin} pack of ${x.market_pack_quantity}`).join(', ')})`, outcome: `${multi[1].length} products, each with its own units per order`, expect: { products: multi[1].length } });
    },
    () => {
      const r = take();
      const u = upcOf(r)!.padStart(12, '0');
      const dashed = `${u[0]}-${u.slice(1, 6)}-${u.slice(6, 11)}-${u[11]}`;
      return regular(r, dashed, dashed, 8.1, '8.1', { what: `UPC written with hyphens (${dashed})`, outcome: 'found', expect: { products: 1 } });
    },
    () => {
      const r = find((x) => !!x.identifiers.gtin && x.market_pack_quantity === 1, 'GTIN-14');
      return regular(r, x14(r), x14(r), 3.99, '3.99', { what: `GTIN-14 case code ${x14(r)}`, outcome: 'found', expect: { products: 1 } });
    },
    () => {
      const r = find((x) => x.category === 'Books' && x.buybox_price !== null, 'book');
      const isbn = r.identifiers.isbn![0];
      return regular(r, isbn, isbn, 5.25, '5.25', { what: `ISBN-13 ${isbn} (a book)`, outcome: 'found; media closing fee applies', expect: { products: 1 } });
    },
    () => {
      const r = find((x) => x.asin.startsWith('B0') && x.buybox_price !== null && x.fees_available, 'ASIN');
      return regular(r, r.asin, r.asin, 7.4, '7.4', { what: `ASIN ${r.asin} instead of a UPC`, outcome: 'found by ASIN', expect: { products: 1 } });
    },
    () => {
      const r = find((x) => x.is_hazmat && !!upcOf(x) && byUpc.get(upcOf(x)!)!.length === 1, 'hazmat item');
      return clean(r, { what: 'a hazmat item', outcome: 'found; flag hazmat, FBA surcharge', expect: { products: 1, code: 'hazmat' } });
    },
    () => {
      const r = find((x) => x.is_meltable && !!upcOf(x) && byUpc.get(upcOf(x)!)!.length === 1 && x.buybox_price !== null, 'meltable item');
      return clean(r, { what: 'a meltable item', outcome: 'found; flag meltable', expect: { products: 1, code: 'meltable' } });
    },
    () => {
      const r = find((x) => !x.fees_available && !!upcOf(x) && byUpc.get(upcOf(x)!)!.length === 1 && x.buybox_price !== null, 'item without fees');
      return clean(r, { what: 'a listing without a fee estimate', outcome: 'found; market fees null, profit null, error fees_unavailable', expect: { products: 1, code: 'fees_unavailable' } });
    },
    () => {
      const r = find((x) => x.brand === 'ACME' && !x.is_meltable && !!upcOf(x) && byUpc.get(upcOf(x)!)!.length === 1 && x.buybox_price !== null, 'ACME item');
      return clean(r, { what: 'brand spelled "ACME" (others are "Acme")', outcome: 'found; blocking "Acme" does not drop it (exact match)', expect: { products: 1 } });
    },
    () => {
      const r = take();
      return regular(r, Number(upcOf(r)), upcOf(r)!.replace(/^0+/, ''), -3, '-3.00', { what: 'negative cost', outcome: 'error invalid_cost', expect: { error: 'invalid_cost' } });
    },
    () => {
      const r = take();
      return regular(r, Number(upcOf(r)), upcOf(r)!.replace(/^0+/, ''), 'USD 24.00', 'USD 24.00', { what: 'cost written "USD 24.00"', outcome: 'cost 2400 cents (currency code dropped)', expect: { products: 1, cost: 2400 } });
    },
  ];
  const x14 = (r: CatalogRecord) => r.identifiers.gtin![0];
  const TOTAL = 300;
  const every = Math.floor(TOTAL / special.length);
  let s = 0;
  for (let i = 0; i < TOTAL; i++) {
    if (i % every === every - 1 && s < special.length) rows.push(special[s++]());
    else rows.push(clean(take()));
  }
  while (s < special.length) rows.push(special[s++]());

  const tinyPool = plain.filter((r) => !upcOf(r)!.startsWith('0') && r.rank !== null).slice(0, 10);
  const tiny = [['UPC', 'Description', 'Cost'], ...tinyPool.map((r) => [upcOf(r)!, bare(r).replace(/[",\n]/g, ''), money(Math.round(r.buybox_price! * 0.5))])];
  return { rows, tiny };
}

const FIXED_TIME = Date.UTC(2025, 10, 17);

/**
 * Runs `f` with `new Date()` and `Date.now()` answering `time`: the ZIP library inside exceljs
 * stamps every entry with the current time and offers no option, so this is what makes the
 * written XLSX byte-identical on every run. Only this generator script does it.
 */
async function withFixedClock<T>(time: number, f: () => Promise<T>): Promise<T> {
  const RealDate = Date;
  class FixedDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(time);
      else super(...(args as [number]));
    }
    static now(): number {
      return time;
    }
  }
  globalThis.Date = FixedDate as DateConstructor;
  try {
    return await f();
  } finally {
    globalThis.Date = RealDate;
  }
}

function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
}
export const toCsv = (rows: string[][]) => rows.map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';

/** The XLSX price list: header row and the rows' cells on the first sheet "Price List". */
export async function xlsxBytes(rows: SampleRow[]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'samples/generate.ts';
  wb.created = wb.modified = new Date(FIXED_TIME);
  const ws = wb.addWorksheet('Price List');
  ws.addRow(HEADERS);
  for (const r of rows) ws.addRow(r.xlsx.map((c) => (c === null ? undefined : c)));
  ws.getColumn(4).numFmt = '0.00';
  return Buffer.from(await withFixedClock(FIXED_TIME, () => wb.xlsx.writeBuffer()));
}

async function main(): Promise<void> {
  const { rows, tiny } = buildSampleRows();
  writeFileSync(join(SAMPLES_DIR, 'supplier-price-list.csv'), toCsv([HEADERS, ...rows.map((r) => r.csv)]));
  writeFileSync(join(SAMPLES_DIR, 'tiny.csv'), toCsv(tiny));
  writeFileSync(join(SAMPLES_DIR, 'supplier-price-list.xlsx'), await xlsxBytes(rows));
  const table = rows
    .map((r, i) => (r.messy ? `| ${i + 2} | ${r.messy.what.replace(/\|/g, '\\|')} | ${r.messy.outcome} |` : ''))
    .filter(Boolean)
    .join('\n');
  const readme = readFileSync(join(SAMPLES_DIR, 'README.md'), 'utf8');
  const start = readme.indexOf('<!-- messy-rows:start -->');
  const end = readme.indexOf('<!-- messy-rows:end -->');
  if (start < 0 || end < 0) throw new Error('samples/README.md lacks the messy-rows markers');
  writeFileSync(join(SAMPLES_DIR, 'README.md'), readme.slice(0, start) + '<!-- messy-rows:start -->\n| line | what | what the scan does |\n|---|---|---|\n' + table + '\n' + readme.slice(end));
  console.log(`wrote ${rows.length} data rows (${rows.filter((r) => r.messy).length} messy) and tiny.csv`);
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
