// STUB by the lead so the HTTP side compiles; the catalog owner replaces this file.
import type { Catalog } from '../engine/types';
/** Loads a catalog file (format: catalog/README.md). */
export function loadCatalog(_path: string): Catalog {
  throw new Error('catalog not implemented yet');
}
/** Path of the shipped sample catalog. */
export const SAMPLE_CATALOG_PATH = '';
