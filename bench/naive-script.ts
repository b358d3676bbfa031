import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DEFAULT_SCRIPT_PATH } from '../emulator/gas';

/**
 * A copy of the built bundle (with its manifest and HTML) in a fresh temporary folder, with a naive
 * way of doing the work appended, so a benchmark can run the add-on's way and the naive way in the
 * same runtime. Returns the copy's Code.js path.
 */
export function scriptWithNaive(naive: string, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const src = dirname(DEFAULT_SCRIPT_PATH);
  for (const f of ['appsscript.json', 'Sidebar.html']) if (existsSync(join(src, f))) copyFileSync(join(src, f), join(dir, f));
  writeFileSync(join(dir, 'Code.js'), readFileSync(DEFAULT_SCRIPT_PATH, 'utf8') + '\n' + naive);
  return join(dir, 'Code.js');
}
