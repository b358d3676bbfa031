/** The script's Date follows the virtual clock, so add-on code can budget its own modelled time. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime } from '../../emulator/gas';

function scriptRuntime(source: string) {
  const dir = mkdtempSync(join(tmpdir(), 'gas-date-'));
  writeFileSync(join(dir, 'Code.js'), source);
  return createRuntime({ scriptPath: join(dir, 'Code.js'), startTime: Date.UTC(2030, 0, 2, 3, 4, 5) });
}

test('new Date() and Date.now() inside the script read the virtual clock', async () => {
  const rt = scriptRuntime('function now() { return [Date.now(), new Date().getTime(), new Date(0).getTime(), typeof Date()]; }');
  try {
    const [a, b, zero, kind] = rt.run('now') as [number, number, number, string];
    expect(new Date(a).getUTCFullYear()).toBe(2030);
    expect(b).toBeGreaterThanOrEqual(a);
    expect(zero).toBe(0);
    expect(kind).toBe('string');
  } finally {
    await rt.stop();
  }
});

test('Utilities.sleep moves the time the script sees, without waiting for real', async () => {
  const rt = scriptRuntime('function slept() { var t0 = Date.now(); Utilities.sleep(120000); return Date.now() - t0; }');
  try {
    const started = Date.now();
    const elapsed = rt.run('slept') as number;
    expect(elapsed).toBeGreaterThanOrEqual(120000);
    expect(Date.now() - started).toBeLessThan(10000);
  } finally {
    await rt.stop();
  }
});

test('dates made by the script are still Dates (instanceof, methods, Date.UTC)', async () => {
  const rt = scriptRuntime('function check() { var d = new Date(Date.UTC(2024, 1, 29)); return [d instanceof Date, d.toISOString()]; }');
  try {
    expect(rt.run('check')).toEqual([true, '2024-02-29T00:00:00.000Z']);
  } finally {
    await rt.stop();
  }
});
