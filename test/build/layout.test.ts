/**
 * The project's layout (README "Layout"): the add-on (src/) and the local Scan Service
 * (emulator/service/) share only contract/; product, tool and benchmark code never imports a test
 * helper. Read from the import statements of every file.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = join(__dirname, '..', '..');

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, dir))) {
    const rel = join(dir, name);
    if (name === 'node_modules' || name.startsWith('.')) continue;
    if (statSync(join(ROOT, rel)).isDirectory()) out.push(...filesUnder(rel));
    else if (/\.(ts|js|cjs|mjs)$/.test(name)) out.push(rel);
  }
  return out;
}

/** Project-relative paths this file imports (relative specifiers only). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const specs = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)(['"])(\.{1,2}\/[^'"]*)\1/gm)].map((m) => m[2]);
  return specs.map((s) => relative(ROOT, resolve(ROOT, dirname(file), s)));
}

function violations(from: string[], forbidden: (target: string) => boolean): string[] {
  return from.flatMap((f) => importsOf(f).filter(forbidden).map((t) => `${f} -> ${t}`));
}

const under = (p: string, dir: string) => p === dir || p.startsWith(`${dir}/`);

test('src/ imports only src/ and the bundled part of contract/ (never emulator/, tools/, test/, bench/, the OpenAPI loader)', () => {
  expect(violations(filesUnder('src'), (t) => !under(t, 'src') && !(under(t, 'contract') && !under(t, 'contract/openapi')))).toEqual([]);
});

test('emulator/ never imports src/ or the sidebar: the stand-ins depend on contract/ only', () => {
  expect(violations(filesUnder('emulator'), (t) => under(t, 'src') || under(t, 'sidebar') || under(t, 'test') || under(t, 'bench'))).toEqual([]);
});

test('contract/ imports neither side', () => {
  expect(violations(filesUnder('contract'), (t) => !under(t, 'contract'))).toEqual([]);
});

test('no product, tool or benchmark code imports a test helper', () => {
  const code = ['src', 'contract', 'emulator', 'sidebar', 'tools', 'bench'].flatMap(filesUnder);
  expect(violations(code, (t) => under(t, 'test'))).toEqual([]);
});
