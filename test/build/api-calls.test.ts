/**
 * One way to call the API (issue 21): code outside src/api/ calls the areas' operations, each taking
 * an ApiContext; it never sends calls it built itself (`send`, `sendAll`, `requestJson`, the areas'
 * `scanCalls` / `webhookCalls`, the `ApiCall` shape). Read from the import statements of every file
 * of src/.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const SENDING = ['send', 'sendAll', 'sendPaced', 'requestJson', 'buildRequest', 'scanCalls', 'webhookCalls', 'ApiCall'];

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const rel = join(dir, name);
    if (statSync(join(ROOT, rel)).isDirectory()) return filesUnder(rel);
    return name.endsWith('.ts') ? [rel] : [];
  });
}

test('code outside src/api/ imports operations of the API areas, never the means to send hand-built calls', () => {
  const found: string[] = [];
  for (const f of filesUnder('src').filter((f) => !f.startsWith('src/api/'))) {
    const text = readFileSync(join(ROOT, f), 'utf8');
    for (const m of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+['"]([^'"]*\/api\/[^'"]*)['"]/g)) {
      const names = m[1].split(',').map(
        (n) =>
          n
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0],
      );
      for (const n of names) if (SENDING.includes(n)) found.push(`${f}: ${n} from ${m[2]}`);
    }
  }
  expect(found).toEqual([]);
});
