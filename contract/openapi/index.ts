/**
 * The service's API description: one OpenAPI 3.1 document, kept as a base file plus one file per
 * area so that areas can be edited apart. This loader merges them (paths and components) into the
 * single document that the local service validates against, serves at /openapi.json, and from
 * which contract/schema.ts is generated. Nothing else may describe the API.
 *
 * Parsing the YAML takes about 0.1 s, and the local service parses it at every start (the tests
 * start it about 90 times): the merged document is therefore kept as JSON under
 * node_modules/.cache, found by a SHA-256 of the YAML files and of this loader, so any edit of
 * either is parsed afresh. The YAML stays the only source; the JSON is only its parsed form.
 */
import { isDeepStrictEqual } from 'node:util';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { parse as parseYaml } from 'yaml';
import { KEPT_ROOT, keptPath, readKept, writeKept } from './kept-files';

type Obj = Record<string, any>;

const CACHE_DIR = join(KEPT_ROOT, 'openapi');
/** Entries kept (one per version of the description; the newest few). */
const KEEP = 4;

function mergeInto(target: Obj, source: Obj, where: string): void {
  for (const [k, v] of Object.entries(source ?? {})) {
    if (k in target) {
      if (typeof target[k] === 'object' && typeof v === 'object' && !Array.isArray(v)) mergeInto(target[k], v, `${where}.${k}`);
      else throw new Error(`OpenAPI parts define ${where}.${k} twice`);
    } else target[k] = v;
  }
}

let cached: Obj | undefined;

/** The whole document. Area files are `areas/*.yaml`, each with `paths` and optional `components`. */
export function loadApiDocument(): Obj {
  if (cached) return structuredClone(cached);
  const dir = __dirname;
  const files = [
    join(dir, 'base.yaml'),
    ...readdirSync(join(dir, 'areas'))
      .filter((f) => f.endsWith('.yaml'))
      .sort()
      .map((f) => join(dir, 'areas', f)),
  ];
  const texts = files.map((f) => readFileSync(f, 'utf8'));
  const entry = cacheEntry(texts);
  const fromCache = entry === undefined ? undefined : readEntry(entry);
  const doc = fromCache ?? merge(texts);
  if (entry !== undefined && fromCache === undefined) writeEntry(entry, doc);
  cached = doc;
  return structuredClone(doc);
}

function merge(texts: string[]): Obj {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const parse = (require('yaml') as { parse: typeof parseYaml }).parse;
  const [base, ...areas] = texts;
  const doc = parse(base) as Obj;
  doc.paths ??= {};
  doc.components ??= {};
  for (const text of areas) {
    const part = parse(text) as Obj;
    mergeInto(doc.paths, part.paths ?? {}, 'paths');
    mergeInto(doc.components, part.components ?? {}, 'components');
  }
  return doc;
}

/** The kept file for these YAML texts; undefined when this loader's sources cannot be read. */
function cacheEntry(texts: string[]): string | undefined {
  let loader: Buffer[];
  try {
    loader = ['index.ts', 'kept-files.ts'].map((f) => readFileSync(join(__dirname, f)));
  } catch {
    return undefined;
  }
  return keptPath(CACHE_DIR, 'openapi', '.json', [...loader, ...texts]);
}

function readEntry(entry: string): Obj | undefined {
  try {
    const bytes = readKept(entry);
    return bytes && (JSON.parse(bytes.toString('utf8')) as Obj);
  } catch {
    return undefined; // unreadable: parse the YAML
  }
}

/** Written only when JSON holds the document exactly (YAML can say what JSON cannot, such as .inf). */
function writeEntry(entry: string, doc: Obj): void {
  const text = JSON.stringify(doc);
  if (isDeepStrictEqual(JSON.parse(text), doc)) writeKept(entry, [text], KEEP);
}
