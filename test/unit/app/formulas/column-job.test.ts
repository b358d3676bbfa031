import {
  CHECKPOINT_MAX_BYTES,
  completeChunk,
  decodeJob,
  encodeJob,
  END_RESERVE_MS,
  isDone,
  maxChunkRows,
  nextChunk,
  planColumnJob,
  progress,
  type ColumnJob,
} from '../../../../src/app/formulas/column-job';

const sel = { sheetId: 7, sheetName: 'Supplier list', row: 1, column: 3, numRows: 50001, numColumns: 1 };

function plan(): ColumnJob {
  const p = planColumnJob(sel, 'ASIN_FROM_UPC', { marketplace: 'US', hasHeader: true, now: 1000 });
  if (!p.ok) throw new Error(p.message);
  return p.job;
}

test('plans the column below its header, output to its right', () => {
  const j = plan();
  expect(j).toMatchObject({ firstRow: 2, lastRow: 50001, inColumn: 3, outColumn: 4, nextRow: 2, matches: 'first', outWidth: 1 });
  expect(planColumnJob({ ...sel, numColumns: 2 }, 'ASIN_FROM_UPC', { marketplace: 'US', hasHeader: false, now: 0 })).toEqual({
    ok: false,
    message: 'Select one column of identifiers (you selected 2 columns).',
  });
  expect(planColumnJob({ ...sel, numRows: 1 }, 'ASIN_FROM_UPC', { marketplace: 'US', hasHeader: true, now: 0 }).ok).toBe(false);
});

test('runs a 50,000-row column over several 6-minute executions: every row exactly once, checkpoints under 9 KB', () => {
  let job = plan();
  let executions = 0;
  const covered: number[] = [];
  while (!isDone(job)) {
    executions++;
    // A fresh execution: 6 minutes minus start-up; the checkpoint goes through a property value.
    job = decodeJob(encodeJob(job))!;
    let left = 6 * 60 * 1000 - 1000;
    for (let c = nextChunk(job, left); c; c = nextChunk(job, left)) {
      expect(c.numRows).toBeLessThanOrEqual(maxChunkRows('ASIN_FROM_UPC'));
      expect(c.budgetMs).toBeLessThanOrEqual(left - END_RESERVE_MS);
      const elapsed = c.numRows * 25; // slower than the first guess: the plan must adapt
      left -= elapsed;
      for (let r = c.startRow; r < c.startRow + c.numRows; r++) covered.push(r);
      job = completeChunk(job, { rows: c.numRows, width: 1, elapsedMs: elapsed, now: 0 });
      expect(encodeJob(job).length).toBeLessThan(CHECKPOINT_MAX_BYTES);
    }
    expect(left).toBeGreaterThan(0); // never planned past the limit
    expect(executions).toBeLessThan(20);
  }
  expect(covered.length).toBe(50000);
  expect(new Set(covered).size).toBe(50000);
  expect(Math.min(...covered)).toBe(2);
  expect(Math.max(...covered)).toBe(50001);
  expect(executions).toBeGreaterThan(1);
  expect(progress(job).text).toBe('Converted 50000 rows.');
});

test('a chunk that wrote fewer rows than planned resumes at the first unwritten row', () => {
  const job = completeChunk(plan(), { rows: 300, width: 3, elapsedMs: 3000, now: 5 });
  expect(job.nextRow).toBe(302);
  expect(job.outWidth).toBe(3);
  expect(progress(job)).toMatchObject({ done: 300, total: 50000, percent: 0 });
  expect(nextChunk(job, END_RESERVE_MS)).toBeNull();
});

test('decodeJob refuses anything malformed', () => {
  const good = encodeJob(plan());
  expect(decodeJob(good)).toEqual(plan());
  expect(decodeJob(null)).toBeUndefined();
  expect(decodeJob('{')).toBeUndefined();
  expect(decodeJob(JSON.stringify({ ...plan(), fn: 'DROP' }))).toBeUndefined();
  expect(decodeJob(JSON.stringify({ ...plan(), nextRow: 99999999 }))).toBeUndefined();
  expect(decodeJob(JSON.stringify({ ...plan(), matches: 'x' }))).toBeUndefined();
});
