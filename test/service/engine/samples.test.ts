/** The sample price lists: regenerated identically, and every messy row scans as samples/README.md says. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { buildSampleRows, COLUMNS, HEADERS, toCsv, xlsxBytes } from '../../../samples/generate';
import { loadCatalog, SAMPLE_CATALOG_PATH } from '../../../emulator/service/catalog/index';
import { createEngine } from '../../../emulator/service/engine/index';
import { numberText, parseUpload } from '../../../emulator/service/engine/upload';
import { attrs, rules } from './fixtures';

const dir = join(__dirname, '..', '..', '..', 'samples');
const built = buildSampleRows();
const engine = createEngine(loadCatalog(SAMPLE_CATALOG_PATH));
const scanAttrs = attrs(
  { id: COLUMNS.upc, cost: COLUMNS.cost, supplier_sku: COLUMNS.item_code, map: COLUMNS.map, stock_quantity: COLUMNS.stock },
  { header: true },
);

describe('sample files', () => {
  it('the CSV files are what the generator writes, byte for byte', () => {
    expect(readFileSync(join(dir, 'supplier-price-list.csv'), 'utf8')).toBe(toCsv([HEADERS, ...built.rows.map((r) => r.csv)]));
    expect(readFileSync(join(dir, 'tiny.csv'), 'utf8')).toBe(toCsv(built.tiny));
  });
  it('the XLSX is what the generator writes, byte for byte', async () => {
    const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    expect(sha(await xlsxBytes(built.rows))).toBe(sha(readFileSync(join(dir, 'supplier-price-list.xlsx'))));
  });
  it('the XLSX holds the generated cells', async () => {
    const rows = await parseUpload(readFileSync(join(dir, 'supplier-price-list.xlsx')), 'supplier-price-list.xlsx', '');
    const expected = [HEADERS, ...built.rows.map((r) => r.xlsx.map((c) => (c === null ? '' : typeof c === 'number' ? numberText(c) : c)))];
    expect(rows.map((r) => r.join('|').replace(/\|+$/, ''))).toEqual(expected.map((r) => r.join('|').replace(/\|+$/, '')));
  });
  it('has a few hundred rows, the messy ones listed in samples/README.md', () => {
    expect(built.rows.length).toBe(300);
    const readme = readFileSync(join(dir, 'README.md'), 'utf8');
    built.rows.forEach((r, i) => {
      if (r.messy) expect(readme).toContain(`| ${i + 2} | ${r.messy.what.replace(/\|/g, '\\|')} |`);
    });
  });
});

describe.each(['supplier-price-list.csv', 'supplier-price-list.xlsx'])('scanning %s', (file) => {
  let rows: string[][];
  beforeAll(async () => {
    rows = await parseUpload(readFileSync(join(dir, file)), file, '');
  });
  it('every messy row gives the documented outcome', () => {
    built.rows.forEach((r, i) => {
      if (!r.messy) return;
      const line = i + 2;
      const out = engine.processRow(rows[line - 1] ?? [], line, scanAttrs, 1, rules());
      const e = r.messy.expect;
      const got = {
        line,
        error: out.error?.code,
        blank: out.blank,
        products: out.error || out.blank ? undefined : out.products.length,
        cost: e.cost === undefined ? undefined : (out.products[0] as any)?.inputs.cost,
        code:
          e.code === undefined
            ? undefined
            : out.products.every((p: any) => [...p.flags, ...p.errors].some((f: any) => f.code === e.code))
              ? e.code
              : 'missing',
      };
      expect(got).toEqual({ line, error: e.error, blank: e.blank, products: e.products, cost: e.cost, code: e.code });
    });
  });
  it('every clean row finds exactly one product', () => {
    const bad = built.rows
      .map((r, i) => (r.messy ? null : { line: i + 2, out: engine.processRow(rows[i + 1], i + 2, scanAttrs, 1, rules()) }))
      .filter((x): x is NonNullable<typeof x> => x !== null && (x.out.error !== undefined || x.out.products.length !== 1));
    expect(bad.map((b) => [b.line, b.out.error?.code])).toEqual([]);
  });
});

describe('tiny.csv', () => {
  it('10 clean rows, each one product with a computed profit', async () => {
    const rows = await parseUpload(readFileSync(join(dir, 'tiny.csv')), 'tiny.csv', 'text/csv');
    expect(rows.length).toBe(11);
    const outs = rows.slice(1).map((r, i) => engine.processRow(r, i + 2, attrs({ id: 0, cost: 2 }, { header: true }), 1, rules()));
    expect(outs.map((o) => [o.error, o.products.length, typeof (o.products[0] as any)?.financials.profit])).toEqual(
      Array(10).fill([undefined, 1, 'number']),
    );
  });
});
