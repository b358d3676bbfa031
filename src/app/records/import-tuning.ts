/**
 * The import's tuning knob (script property IMPORT_TUNING_KEY), read by the import and by New scan's
 * room check before a send. The knob only lowers the defaults (tests and the bench use it).
 */
import { SPREADSHEET_MAX_CELLS } from '../../domain/price-list/room';
import { IMPORT_BUDGET_MS } from '../../domain/time-budgets';
import { IMPORT_TUNING_KEY } from '../../store/keys';
import { record } from '../../store/records';
import { scriptProperties } from '../../apps-script';

/** Pages per fetchAll wave (and per setValues): 5,000 rows, about 180,000 cells (fewer, larger calls: issue 22 measured 30.9 s at 25 pages). */
export const PAGES_PER_WAVE = 50;

export interface ImportTuning {
  budgetMs: number;
  pagesPerWave: number;
  /** Cells the spreadsheet holds (Google: 10,000,000; the knob only lowers it, for tests against a lowered local limit). */
  cellLimit: number;
  /** false: grow tabs without reading the room first (the bench's comparison; Google's refusal is still caught). */
  roomCheck: boolean;
}

const KNOB = record<Partial<ImportTuning>>(IMPORT_TUNING_KEY, { decode: (v) => v as Partial<ImportTuning> | null });

export function readTuning(): ImportTuning {
  const t: ImportTuning = { budgetMs: IMPORT_BUDGET_MS, pagesPerWave: PAGES_PER_WAVE, cellLimit: SPREADSHEET_MAX_CELLS, roomCheck: true };
  // An unreadable knob is ignored: the defaults are safe.
  const v = KNOB.get(scriptProperties());
  if (v) {
    if (typeof v.budgetMs === 'number' && v.budgetMs > 0) t.budgetMs = Math.min(v.budgetMs, IMPORT_BUDGET_MS);
    if (typeof v.pagesPerWave === 'number' && v.pagesPerWave >= 1) t.pagesPerWave = Math.min(Math.floor(v.pagesPerWave), PAGES_PER_WAVE);
    if (typeof v.cellLimit === 'number' && v.cellLimit > 0) t.cellLimit = Math.min(Math.floor(v.cellLimit), SPREADSHEET_MAX_CELLS);
    if (v.roomCheck === false) t.roomCheck = false;
  }
  return t;
}
