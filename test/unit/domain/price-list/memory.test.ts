/**
 * Supplier memory (issue 23), the pure part and its storage: recognising a supplier's list by its
 * header row (reordered columns, another sheet, a changed header), roles by name, and the bounds
 * that keep the memory within Google's property limits (9 KB per value, 500 KB per store), measured
 * in bytes on a user store filled far past them.
 */
import { entryForScan, recall, rolesFor, type SupplierEntry } from '../../../../src/domain/price-list/memory';
import {
  forgetSupplierEntry,
  readSuppliers,
  rememberSupplier,
  SUPPLIER_DOCUMENTS_MAX,
  SUPPLIERS_PER_DOCUMENT,
  SUPPLIERS_STORE_MAX_BYTES,
  suppliersKey,
} from '../../../../src/store/suppliers';
import type { ColumnRole } from '../../../../src/domain/price-list/mapping';
import { STORED_SETTINGS } from '../../../../src/store/settings';

const NAMES = ['Item #', 'UPC', 'Description', 'Unit Cost', 'MAP'];
const ROLES: ColumnRole[] = ['sku', 'identifier', 'custom', 'cost', 'ignore'];
const OPTIONS = { marketplace: 'GB', name: 'ACME 2026-11-20', supplierDiscount: '5', monthsOfCover: '3', shareRule: 'even' };

function entry(over: Partial<Parameters<typeof entryForScan>[0]> = {}): SupplierEntry {
  return entryForScan({
    names: NAMES,
    roles: ROLES,
    options: OPTIONS,
    sheetId: 7,
    sheetName: 'ACME',
    rangeA1: 'A1:E40',
    selection: false,
    headerRow: 1,
    at: 1000,
    ...over,
  });
}

/** A user properties store as Google keeps it (a map of texts), counting bytes as UTF-8. */
class FakeUserProperties {
  map = new Map<string, string>();
  getProperty(k: string) {
    return this.map.get(k) ?? null;
  }
  setProperty(k: string, v: string) {
    if (Buffer.byteLength(v) > 9 * 1024) throw new Error('Argument too large: value');
    this.map.set(k, v);
    return this;
  }
  deleteProperty(k: string) {
    this.map.delete(k);
    return this;
  }
  getKeys() {
    return [...this.map.keys()];
  }
  bytes(prefix = '') {
    let n = 0;
    for (const [k, v] of this.map) if (k.startsWith(prefix)) n += Buffer.byteLength(k) + Buffer.byteLength(v);
    return n;
  }
}
const asProps = (p: FakeUserProperties) => p as unknown as GoogleAppsScript.Properties.Properties;

describe('recognising a supplier list', () => {
  test('the same header in another column order is recognised, and each column gets the role of its name', () => {
    const e = entry();
    const moved = ['MAP', 'Unit Cost', 'UPC', 'Item #', 'Description'];
    const r = recall([e], 7, moved);
    expect(r.kind).toBe('recognised');
    expect(rolesFor(e, moved)).toEqual(['ignore', 'cost', 'identifier', 'sku', 'custom']);
  });

  test('names are compared normalised: case, spacing and punctuation do not make another list', () => {
    expect(recall([entry()], 7, ['item no', 'upc', ' description ', 'UNIT-COST', 'map']).kind).toBe('recognised');
  });

  test('a new sheet with the same headers is recognised (the remembered options come with it)', () => {
    const r = recall([entry()], 99, NAMES);
    expect(r).toEqual({
      kind: 'recognised',
      entry: expect.objectContaining({ n: 'ACME', o: expect.objectContaining({ marketplace: 'GB' }) }),
    });
  });

  test('a header that changed is not recognised; in the sheet scanned before it is said (header-changed), elsewhere it is unknown', () => {
    const changed = ['Item #', 'UPC', 'Description', 'Cost USD', 'MAP'];
    expect(recall([entry()], 7, changed)).toEqual({ kind: 'header-changed', entry: expect.objectContaining({ t: 1000 }) });
    expect(recall([entry()], 8, changed)).toEqual({ kind: 'unknown' });
    // One column more is another header too.
    expect(recall([entry()], 7, NAMES.concat('Case Pack')).kind).toBe('header-changed');
  });

  test('a scan of some columns says nothing of the whole sheet header: no "header changed" for a selection of other columns', () => {
    const part = entry({ names: ['UPC', 'Unit Cost'], roles: ['identifier', 'cost'], selection: true, rangeA1: 'B1:C40' });
    expect(recall([part], 7, NAMES, { selection: false, rangeA1: 'A1:E40' })).toEqual({ kind: 'unknown' });
    expect(recall([part], 7, NAMES, { selection: true, rangeA1: 'A5:E9' })).toEqual({ kind: 'unknown' });
    // The same columns selected again, with another header there: changed.
    expect(recall([part], 7, ['UPC', 'Cost USD'], { selection: true, rangeA1: 'B2:C80' }).kind).toBe('header-changed');
    // The whole sheet scanned before, a selection now: unknown too (other columns may be chosen).
    expect(recall([entry()], 7, ['UPC', 'Cost USD'], { selection: true, rangeA1: 'B2:C80' })).toEqual({ kind: 'unknown' });
  });

  test('repeated names keep their own roles, by their order in the header', () => {
    const e = entry({ names: ['Price', 'UPC', 'Price'], roles: ['cost', 'identifier', 'map'] });
    expect(rolesFor(e, ['Price', 'UPC', 'Price'])).toEqual(['cost', 'identifier', 'map']);
  });

  test('the scan name is not remembered; the other options are, as the form sent them', () => {
    const e = entry();
    expect(e.o).toEqual({ marketplace: 'GB', supplierDiscount: '5', monthsOfCover: '3', shareRule: 'even' });
    expect(e.r).toEqual({ 'item no': 'sku', upc: 'identifier', description: 'custom', 'unit cost': 'cost' });
  });

  test('New scan\'s "All columns" is kept with the supplier and read back from storage; anything else is the essential columns (issue 36)', () => {
    expect(entry({ columns: 'all' }).c).toBe('all');
    expect(entry().c).toBeUndefined();
    expect(entry({ columns: 'essential' }).c).toBeUndefined();
    expect(entry({ columns: 'ALL; DROP' }).c).toBeUndefined();
    const p = new FakeUserProperties();
    rememberSupplier(asProps(p), 'doc', entry({ columns: 'all' }));
    expect(readSuppliers(asProps(p), 'doc')[0].c).toBe('all');
    // Scanning the list again with the essential columns replaces the choice.
    rememberSupplier(asProps(p), 'doc', entry({ at: 2 }));
    expect(readSuppliers(asProps(p), 'doc')[0].c).toBeUndefined();
  });
});

describe('storage: per document, bounded', () => {
  test('one entry per header: scanning the same list again replaces it; Forget removes only that supplier', () => {
    const p = new FakeUserProperties();
    rememberSupplier(asProps(p), 'doc1', entry({ at: 1 }));
    rememberSupplier(asProps(p), 'doc1', entry({ at: 2, sheetName: 'ACME week 2' }));
    const other = entry({ names: ['EAN', 'Price'], roles: ['identifier', 'cost'], at: 3, sheetName: 'Bolt' });
    rememberSupplier(asProps(p), 'doc1', other);
    expect(readSuppliers(asProps(p), 'doc1').map((e) => [e.n, e.t])).toEqual([
      ['Bolt', 3],
      ['ACME week 2', 2],
    ]);
    expect(readSuppliers(asProps(p), 'doc2')).toEqual([]);
    expect(forgetSupplierEntry(asProps(p), 'doc1', entry().h)).toBe(true);
    expect(readSuppliers(asProps(p), 'doc1').map((e) => e.n)).toEqual(['Bolt']);
    expect(forgetSupplierEntry(asProps(p), 'doc1', entry().h)).toBe(false);
    expect(forgetSupplierEntry(asProps(p), 'doc1', other.h)).toBe(true);
    expect(p.getKeys()).toEqual([]); // the last one forgotten leaves no property behind
  });

  test('bytes bound: 26 documents × 13 worst-case suppliers stay within 9 KB a value and the memory within its share of the 500 KB store', () => {
    const p = new FakeUserProperties();
    // Another record of the user's, written by the settings' own store (what saveSettings calls), is never touched.
    STORED_SETTINGS.put(asProps(p), { apiKey: 'x'.repeat(430), serviceUrl: 'https://scan.example', marketplace: 'GB' });
    const settingsText = p.getProperty(STORED_SETTINGS.key());
    expect(Buffer.byteLength(settingsText!)).toBeGreaterThan(500);
    // 250 columns of names that stay 40 characters once normalised (the key's cut), all with a role.
    const long = (i: number, j: number) => ('supplier ' + i + ' column ' + j + ' ').padEnd(60, 'x') + ' Ünïcödé';
    let t = 0;
    for (let d = 0; d < 26; d++) {
      for (let s = 0; s < 13; s++) {
        const names = Array.from({ length: 250 }, (_x, j) => long(s, j));
        const roles = names.map((_n, j) =>
          j < 8 ? (['identifier', 'cost', 'sku', 'map', 'stock', 'pack_quantity', 'image', 'discount'][j] as ColumnRole) : 'custom',
        );
        rememberSupplier(
          asProps(p),
          'spreadsheet-id-' + String(d).padStart(40, '0'),
          entry({
            names,
            roles,
            at: ++t,
            sheetName: 'é'.repeat(300),
            rangeA1: 'A1:IP10000',
            columns: 'all',
            options: {
              ...OPTIONS,
              prepCost: '€'.repeat(500),
              multipackPrepCost: { enabled: true, firstN: '1'.repeat(90), costForFirstN: '2', costForRest: '3' },
            },
          }),
        );
      }
    }
    const prefix = suppliersKey(''); // the memory's keys: one per document
    const keys = p.getKeys().filter((k) => k.startsWith(prefix));
    expect(keys).toHaveLength(SUPPLIER_DOCUMENTS_MAX);
    for (const k of keys) expect(Buffer.byteLength(p.getProperty(k)!)).toBeLessThanOrEqual(9 * 1024);
    expect(p.bytes(prefix)).toBeLessThanOrEqual(SUPPLIERS_STORE_MAX_BYTES);
    expect(SUPPLIERS_STORE_MAX_BYTES).toBeLessThan(500 * 1024);
    // The documents used most recently are the ones kept; the user's other records are untouched.
    expect(keys).toContain(suppliersKey('spreadsheet-id-' + String(25).padStart(40, '0')));
    expect(keys).not.toContain(suppliersKey('spreadsheet-id-' + String(0).padStart(40, '0')));
    expect(p.getProperty(STORED_SETTINGS.key())).toBe(settingsText);
    // Each document keeps its newest suppliers, at most SUPPLIERS_PER_DOCUMENT.
    const kept = readSuppliers(asProps(p), 'spreadsheet-id-' + String(25).padStart(40, '0'));
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThanOrEqual(SUPPLIERS_PER_DOCUMENT);
    expect(kept[0].t).toBe(t);
    // An entry too large alone keeps its unique roles (its 242 custom columns are dropped, not the scan).
    expect(Object.values(kept[0].r).sort()).toEqual(['cost', 'discount', 'identifier', 'image', 'map', 'pack_quantity', 'sku', 'stock']);
  });

  test('a typical supplier (7 columns) keeps all SUPPLIERS_PER_DOCUMENT suppliers of a document', () => {
    const p = new FakeUserProperties();
    for (let s = 0; s < 20; s++)
      rememberSupplier(asProps(p), 'doc', entry({ names: NAMES.map((n) => n + ' ' + s), at: s, sheetName: 'Supplier ' + s }));
    const kept = readSuppliers(asProps(p), 'doc');
    expect(kept).toHaveLength(SUPPLIERS_PER_DOCUMENT);
    expect(kept.map((e) => e.t)).toEqual(Array.from({ length: SUPPLIERS_PER_DOCUMENT }, (_x, i) => 19 - i));
    expect(Buffer.byteLength(p.getProperty(suppliersKey('doc'))!)).toBeLessThan(9 * 1024);
  });
});
