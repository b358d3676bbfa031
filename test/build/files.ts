/** The source files of the checks in this folder: every .ts/.js/.cjs/.mjs below a folder of the repository (paths relative to its root). */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, dir))) {
    const rel = join(dir, name);
    if (name === 'node_modules' || name.startsWith('.')) continue;
    if (statSync(join(ROOT, rel)).isDirectory()) out.push(...filesUnder(rel));
    else if (/\.(ts|js|cjs|mjs)$/.test(name)) out.push(rel);
  }
  return out;
}
