/**
 * Every kind of thing the add-on stores, read from src/store (where every storage name is spelled,
 * test/build/layout.test.ts holds that): property keys and key prefixes in the `scan.` namespace,
 * the conversion cache's namespace `sc1`, and the hidden tabs' prefix `_scan_`. The privacy policy
 * must name each (test/build/listing.test.ts), so a key added to src/store without a line in the
 * policy fails the tests.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { WEBHOOK_EVENTS } from '../../src/api/webhooks';

const ROOT = join(__dirname, '..', '..');

/** The texts of every string, template and regular-expression literal of a TypeScript source (comments are not code). */
export function literalsOf(text: string): string[] {
  const out: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node) || ts.isRegularExpressionLiteral(node)) out.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile('x.ts', text, ts.ScriptTarget.ES2020, true));
  return out;
}

/** The add-on's storage names: property keys and prefixes in the `scan.` namespace, the cache namespace `sc1`. */
// Webhook event names (`scan.complete`) are the API's words, not storage names.
export const STORAGE_NAME = (l: string) =>
  (/^scan\.[A-Za-z]/.test(l) && !(WEBHOOK_EVENTS as readonly string[]).includes(l)) || /^sc1(\||$)/.test(l);

/** Storage names, and the names of the hidden tabs the add-on keeps state in (`_scan_…`). */
export const STORED_NAME = (l: string) => STORAGE_NAME(l) || /^_scan_/.test(l);

/** The stored kinds named in the sources under `dir` (default src/store), each once, sorted: a name ending in `.` or `_` is a prefix. */
export function storedKinds(dir = join(ROOT, 'src', 'store')): string[] {
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
  const names = files.flatMap((f) => literalsOf(readFileSync(join(dir, f), 'utf8')).filter(STORED_NAME));
  return [...new Set(names)].sort();
}
