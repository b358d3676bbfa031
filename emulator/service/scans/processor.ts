/**
 * Background processing of queued scans: a few lines at a time on a timer, at the configured rate
 * (input lines per minute per scan; the reported `speed` is products per minute, records.ts), each
 * batch one transaction, so request handling is never held up for long and a restart resumes where
 * the last committed batch ended.
 */
import { performance } from 'node:perf_hooks';
import type { ServiceContext } from '../context';
import type { AccountRules, ScanAttributes, ScanEngine } from '../engine/types';
import { loadAccountRules } from './rules';
import type { ScanRow } from './records';
import { finishScan, getScanRow } from './store';

const TICK_MS = 50;
/** Most lines processed in one batch (one transaction, one turn of the event loop). */
const MAX_BATCH = 200;
/** Thrown inside a batch whose scan was cancelled or deleted meanwhile: rolls the batch back. */
class StaleBatch extends Error {}

interface Running {
  attrs: ScanAttributes;
  /** Read when the scan starts or resumes (document: blocklists etc. apply to scans). */
  rules: AccountRules;
  /** Lines the speed limit allows now (fractional). */
  credit: number;
  /** performance.now() up to which the speed limit was credited. */
  creditAt: number;
  /** performance.now() up to which time was counted as processing time. */
  last: number;
}

/** The statements the processor runs. */
function processorStatements(db: ServiceContext['db']) {
  return {
    pendingScans: db.prepare("SELECT * FROM scans WHERE status IN ('queued','in_progress') AND deleted_at IS NULL ORDER BY id"),
    nextInputs: db.prepare('SELECT seq, line, cells FROM scan_inputs WHERE scan_id = ? AND seq >= ? ORDER BY seq LIMIT ?'),
    insertProduct: db.prepare('INSERT INTO scan_products (scan_id, line, data) VALUES (?, ?, ?)'),
    insertError: db.prepare('INSERT INTO scan_errors (scan_id, line, data) VALUES (?, ?, ?)'),
    progress: db.prepare(
      "UPDATE scans SET status = 'in_progress', lines_done = lines_done + ?, products = products + ?, errors = errors + ?, processing_ms = processing_ms + ?, updated_at = ? WHERE id = ? AND status IN ('queued','in_progress') AND lines_done = ?",
    ),
  };
}

/** What one input line gives: the engine's outcome, or, when the engine fails on it, that line's error. */
function lineOutcome(engine: ScanEngine, scan: ScanRow, r: Running, line: number, cells: string[]): ReturnType<ScanEngine['processRow']> {
  try {
    return engine.processRow(cells, line, r.attrs, scan.marketplace_id, r.rules);
  } catch (e) {
    // A fault of the stand-in's engine on one line is that line's error, not the whole scan's.
    console.error(`scan ${scan.id} line ${line}:`, e);
    return {
      products: [],
      error: {
        line,
        identifier: cells[r.attrs.mapping.id] ?? '',
        code: 'processing_failed',
        message: 'The service could not process this line.',
        input: cells,
      },
    };
  }
}

export function startScanProcessor(ctx: ServiceContext, engine: ScanEngine): () => Promise<void> {
  const { db } = ctx;
  const speed = ctx.config.scanSpeedPerMinute;
  const unlimited = !(speed > 0) || !Number.isFinite(speed);
  const running = new Map<number, Running>();
  let timer: NodeJS.Timeout | NodeJS.Immediate | undefined;
  let stopped = false;

  const { pendingScans, nextInputs, insertProduct, insertError, progress } = processorStatements(db);

  /** Processes up to n lines of a scan in one transaction. */
  const batch = db.transaction((scan: ScanRow, r: Running, n: number, started: number) => {
    const inputs = nextInputs.all(scan.id, scan.lines_done, n) as { seq: number; line: number; cells: string }[];
    let products = 0;
    let errors = 0;
    for (const input of inputs) {
      const outcome = lineOutcome(engine, scan, r, input.line, JSON.parse(input.cells) as string[]);
      for (const p of outcome.products) {
        const { id: _ignored, ...rest } = p as Record<string, unknown>;
        insertProduct.run(scan.id, input.line, JSON.stringify(rest));
        products++;
      }
      if (outcome.error) {
        insertError.run(scan.id, input.line, JSON.stringify(outcome.error));
        errors++;
      }
    }
    const done = performance.now();
    const changed = progress.run(
      inputs.length,
      products,
      errors,
      Math.max(1, Math.round(done - started)),
      ctx.now().toISOString(),
      scan.id,
      scan.lines_done,
    ).changes;
    // Someone else moved the scan on (cancelled, deleted): roll this batch back.
    if (changed !== 1) throw new StaleBatch();
    r.last = done;
    return inputs.length;
  });

  function tick(): void {
    timer = undefined;
    if (stopped) return;
    let more = false;
    let budget = MAX_BATCH * 2; // all scans together, per turn, when speed is unlimited
    const scans = pendingScans.all() as ScanRow[];
    const alive = new Set(scans.map((s) => s.id));
    for (const id of running.keys()) if (!alive.has(id)) running.delete(id);
    for (const scan of scans) {
      try {
        let r = running.get(scan.id);
        const now = performance.now();
        if (!r) {
          const attrs = JSON.parse(scan.attributes) as ScanAttributes;
          r = { attrs, rules: loadAccountRules(db, scan.account_id, scan.marketplace_id), credit: 0, creditAt: now, last: now };
          running.set(scan.id, r);
        }
        const remaining = scan.lines - scan.lines_done;
        let n: number;
        if (unlimited) {
          n = Math.min(remaining, MAX_BATCH, budget);
          budget -= n;
        } else {
          r.credit = Math.min(r.credit + ((now - r.creditAt) * speed) / 60000, MAX_BATCH);
          r.creditAt = now;
          n = Math.min(remaining, Math.floor(r.credit));
        }
        if (n > 0) {
          const started = r.last;
          let done: number;
          try {
            done = batch(scan, r, n, started);
          } catch (e) {
            if (e instanceof StaleBatch) continue;
            throw e;
          }
          if (!unlimited) r.credit -= done;
          if (done === 0) {
            // Inputs missing for the lines left (cannot happen unless the database was edited): finish as is.
            finishLeftover(scan.id);
            continue;
          }
        }
        const after = getScanRow(ctx, scan.id)!;
        if (after.status === 'in_progress' || after.status === 'queued') {
          if (after.lines_done >= after.lines) {
            const status = after.products === 0 && after.errors > 0 ? 'error' : 'success';
            finishScan(ctx, scan.id, status);
            running.delete(scan.id);
          } else more = true;
        }
      } catch (e) {
        console.error(`scan ${scan.id}: processing failed`, e);
        finishLeftover(scan.id);
      }
    }
    if (stopped) return;
    // Unlimited speed: go on at the next turn of the event loop, after pending I/O (requests).
    timer = unlimited && more ? setImmediate(tick) : setTimeout(tick, TICK_MS);
  }

  function finishLeftover(id: number): void {
    running.delete(id);
    try {
      finishScan(ctx, id, 'error');
    } catch (e) {
      console.error(`scan ${id}: could not be marked as failed`, e);
    }
  }

  timer = setTimeout(tick, 0);
  return async () => {
    stopped = true;
    if (timer) {
      clearTimeout(timer as NodeJS.Timeout);
      clearImmediate(timer as NodeJS.Immediate);
    }
  };
}
