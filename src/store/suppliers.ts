/**
 * Supplier memory's storage: the USER properties (per Google account, so another editor of a shared
 * document never sees or changes it), one value per document, key `scan.suppliers.<spreadsheet id>`:
 * a JSON list of src/domain/price-list/memory.ts entries, newest first.
 *
 * Why user properties keyed by the document and not document properties keyed by the user: the
 * user's only lasting key in a document, Session.getTemporaryActiveUserKey(), rotates every 30 days
 * (memory would be lost monthly), and the document store is shared by every editor's bookkeeping.
 *
 * Bounds (Google: 9 KB per value, 500 KB per store; the user store is shared by every document the
 * user runs the add-on in): at most SUPPLIERS_PER_DOCUMENT suppliers and SUPPLIERS_VALUE_MAX_BYTES
 * per document, and at most SUPPLIER_DOCUMENTS_MAX documents (the one used longest ago is forgotten
 * first): SUPPLIER_DOCUMENTS_MAX × (key + value) ≤ SUPPLIERS_STORE_MAX_BYTES, 40 % of the store.
 */
import { entriesOf, remember, type SupplierEntry } from '../domain/price-list/memory';
import { record } from './records';
import { utf8Length } from '../domain/sheet/safe';
import { PROPERTY_VALUE_MAX_BYTES } from './keys';

type Properties = GoogleAppsScript.Properties.Properties;

const SUPPLIERS_PREFIX = 'scan.suppliers.';
export const SUPPLIERS_PER_DOCUMENT = 12;
/** Well under a property's 9 KB (1 KB left for the key and Google's own counting). */
export const SUPPLIERS_VALUE_MAX_BYTES = PROPERTY_VALUE_MAX_BYTES - 1024;
export const SUPPLIER_DOCUMENTS_MAX = 24;
/** What the memory may take of the user's 500 KB store at most. */
export const SUPPLIERS_STORE_MAX_BYTES = 200 * 1024;

export function suppliersKey(spreadsheetId: string): string {
  return SUPPLIERS_PREFIX + spreadsheetId;
}

const SUPPLIERS = record<SupplierEntry[], [string]>(suppliersKey, { decode: entriesOf });

export function readSuppliers(user: Properties, spreadsheetId: string): SupplierEntry[] {
  return SUPPLIERS.get(user, spreadsheetId) || [];
}

function newest(text: string | null): number {
  return (SUPPLIERS.parse(text) || []).reduce((m, e) => Math.max(m, e.t), 0);
}

/** Remembers a scan's entry in this document; forgets the documents used longest ago beyond the bound. */
export function rememberSupplier(user: Properties, spreadsheetId: string, entry: SupplierEntry): void {
  const key = suppliersKey(spreadsheetId);
  const next = remember(readSuppliers(user, spreadsheetId), entry, SUPPLIERS_PER_DOCUMENT, SUPPLIERS_VALUE_MAX_BYTES);
  const others = user.getKeys().filter((k) => k.indexOf(SUPPLIERS_PREFIX) === 0 && k !== key);
  if (others.length >= SUPPLIER_DOCUMENTS_MAX) {
    // Rare (a 25th document): each other document's newest scan is read once to find the oldest.
    const ages = others.map((k) => ({ k, t: newest(user.getProperty(k)) })).sort((a, b) => a.t - b.t);
    for (const o of ages.slice(0, others.length - SUPPLIER_DOCUMENTS_MAX + 1)) user.deleteProperty(o.k);
  }
  SUPPLIERS.put(user, next, spreadsheetId);
}

/** Forgets one supplier (by its header signature) in this document; whether there was one. */
export function forgetSupplierEntry(user: Properties, spreadsheetId: string, signature: string): boolean {
  const before = readSuppliers(user, spreadsheetId);
  const after = before.filter((e) => e.h !== signature);
  if (after.length === before.length) return false;
  if (after.length) SUPPLIERS.put(user, after, spreadsheetId);
  else SUPPLIERS.remove(user, spreadsheetId);
  return true;
}

/** Bytes one document's memory takes in the store (key + value), as the bound counts them. */
export function suppliersBytes(spreadsheetId: string, entries: SupplierEntry[]): number {
  return utf8Length(suppliersKey(spreadsheetId)) + utf8Length(JSON.stringify(entries));
}
