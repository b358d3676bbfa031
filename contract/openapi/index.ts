/**
 * The service's API description: one OpenAPI 3.1 document, kept as a base file plus one file per
 * area so that areas can be edited apart. This loader merges them (paths and components) into the
 * single document that the local service validates against, serves at /openapi.json, and from
 * which contract/schema.ts is generated. Nothing else may describe the API.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

type Obj = Record<string, any>;

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
  const doc = parse(readFileSync(join(dir, 'base.yaml'), 'utf8')) as Obj;
  doc.paths ??= {};
  doc.components ??= {};
  for (const f of readdirSync(join(dir, 'areas')).filter((f) => f.endsWith('.yaml')).sort()) {
    const part = parse(readFileSync(join(dir, 'areas', f), 'utf8')) as Obj;
    mergeInto(doc.paths, part.paths ?? {}, 'paths');
    mergeInto(doc.components, part.components ?? {}, 'components');
  }
  cached = doc;
  return structuredClone(doc);
}
