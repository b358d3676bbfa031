// STUB by the lead so the HTTP side compiles; the engine owner replaces this file.
import type { Catalog, ScanEngine } from './types';
export function createEngine(_catalog: Catalog): ScanEngine {
  throw new Error('engine not implemented yet');
}
