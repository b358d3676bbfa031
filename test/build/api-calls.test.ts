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

// ---- One error path (issue 34): a failure becomes an exception in src/api/exceptions.ts only ----

const EXCEPTION_CLASSES = ['ApiProblemError', 'OutOfTimeError'];

/** Every `new X`, `instanceof X` or import of X (an exception class of the API) in a text. */
function exceptionUses(text: string): string[] {
  const out: string[] = [];
  for (const c of EXCEPTION_CLASSES) {
    for (const m of text.matchAll(new RegExp(`(?:\\bnew\\s+|\\binstanceof\\s+)${c}\\b`, 'g'))) out.push(m[0].replace(/\s+/g, ' '));
    for (const m of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from/g))
      if (new RegExp(`\\b${c}\\b`).test(m[1])) out.push('import ' + c);
  }
  return out;
}

test('the checker sees a construction, a class test and an import of the API exceptions', () => {
  const sample =
    "import { ApiProblemError } from '../api/exceptions';\nthrow new ApiProblemError(p);\nif (e instanceof OutOfTimeError) x();";
  expect(exceptionUses(sample).sort()).toEqual(['import ApiProblemError', 'instanceof OutOfTimeError', 'new ApiProblemError']);
  expect(exceptionUses("import { problemOf } from '../api/exceptions';\nconst p = problemOf(e);")).toEqual([]);
});

test('no file of src/ but src/api/exceptions.ts builds, tests for or imports the API exception classes (it uses problemError, problemOf, ranOutOfTime, okBody)', () => {
  const found: string[] = [];
  for (const f of filesUnder('src').filter((f) => f !== 'src/api/exceptions.ts'))
    for (const use of exceptionUses(readFileSync(join(ROOT, f), 'utf8'))) found.push(`${f}: ${use}`);
  expect(found).toEqual([]);
});
