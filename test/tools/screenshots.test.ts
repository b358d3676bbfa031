/**
 * `npm run screenshots` (tools/screenshots.ts): the README's three pictures, taken from the playground
 * on the shipped sample with nothing else running, at desktop size. Needs the built add-on
 * (`npm run build`). The pictures themselves are judged by eye; this holds that the command runs
 * through to its three PNGs.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { DESKTOP, README_SHOTS, takeReadmeScreenshots } from '../../tools/screenshots';

jest.setTimeout(240_000);

/** A PNG's width and height, from its IHDR chunk. */
function pngSize(file: string): { width: number; height: number } {
  const b = readFileSync(file);
  expect(b.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

test('the command takes the result tab, the overview and a row action, 1440 x 900 PNGs', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'readme-shots-'));
  try {
    const files = await takeReadmeScreenshots(dir);
    expect(files.map((f) => basename(f))).toEqual([...README_SHOTS]);
    for (const f of files) expect(pngSize(f)).toEqual({ width: 1440, height: 900 });
    expect(DESKTOP).toEqual({ width: 1440, height: 900 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
