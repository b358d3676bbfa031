/**
 * The project's layout (README "Layout"): the add-on (src/) and the local Scan Service
 * (emulator/service/) share only contract/; product, tool and benchmark code never imports a test
 * helper (read from the import statements of every file). Inside src/, API paths are spelled only in
 * src/api/ and storage names and locks only in src/store/ (read from the literals of every file).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { WEBHOOK_EVENTS } from '../../src/api/webhooks';

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
  const specs = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)(['"])(\.{1,2}\/[^'"]*)\1/gm)].map(
    (m) => m[2],
  );
  return specs.map((s) => relative(ROOT, resolve(ROOT, dirname(file), s)));
}

function violations(from: string[], forbidden: (target: string) => boolean): string[] {
  return from.flatMap((f) =>
    importsOf(f)
      .filter(forbidden)
      .map((t) => `${f} -> ${t}`),
  );
}

const under = (p: string, dir: string) => p === dir || p.startsWith(`${dir}/`);

test('src/ imports only src/ and the bundled part of contract/ (never emulator/, tools/, test/, bench/, the OpenAPI loader)', () => {
  expect(violations(filesUnder('src'), (t) => !under(t, 'src') && !(under(t, 'contract') && !under(t, 'contract/openapi')))).toEqual([]);
});

test('emulator/ never imports src/ or the sidebar: the stand-ins depend on contract/ only', () => {
  expect(
    violations(filesUnder('emulator'), (t) => under(t, 'src') || under(t, 'sidebar') || under(t, 'test') || under(t, 'bench')),
  ).toEqual([]);
});

test('contract/ imports neither side', () => {
  expect(violations(filesUnder('contract'), (t) => !under(t, 'contract'))).toEqual([]);
});

test('no product, tool or benchmark code imports a test helper', () => {
  const code = ['src', 'contract', 'emulator', 'sidebar', 'tools', 'bench'].flatMap(filesUnder);
  expect(violations(code, (t) => under(t, 'test'))).toEqual([]);
});

// ---- What src/ spells where: API paths in src/api/, storage names and locks in src/store/ --------

/** The texts of every string, template and regular-expression literal of a TypeScript source (comments are not code). */
function literalsOf(text: string): string[] {
  const out: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node) || ts.isRegularExpressionLiteral(node)) out.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile('x.ts', text, ts.ScriptTarget.ES2020, true));
  return out;
}

/** `file: literal` for each literal of src/ files outside `home` that `bad` matches. */
function literalsOutside(home: string, bad: (literal: string) => boolean): string[] {
  return filesUnder('src')
    .filter((f) => !under(f, home) && /\.ts$/.test(f))
    .flatMap((f) =>
      literalsOf(readFileSync(join(ROOT, f), 'utf8'))
        .filter(bad)
        .map((l) => `${f}: ${l}`),
    );
}

const API_PATH = (l: string) => /\/api\/v\d/.test(l);
/** The add-on's storage names: property keys and prefixes in the `scan.` namespace, the cache namespace `sc1`. */
// Webhook event names (`scan.complete`) are the API's words, not storage names.
const STORAGE_NAME = (l: string) =>
  (/^scan\.[A-Za-z]/.test(l) && !(WEBHOOK_EVENTS as readonly string[]).includes(l)) || /^sc1(\||$)/.test(l);

test('the literal checks see literals, not comments', () => {
  const sample = "// GET /api/v3/scans\nconst a = '/api/v3/scans/' + 1;\nconst b = `scan.tab.${2}`;\nconst c = /\\/api\\/v3\\//;";
  const found = literalsOf(sample);
  expect(found.filter(API_PATH)).toEqual(['/api/v3/scans/']);
  expect(found.filter(STORAGE_NAME)).toEqual(['scan.tab.']);
});

test('no API path (/api/v…) is spelled in src/ outside src/api/', () => {
  expect(literalsOutside('src/api', API_PATH)).toEqual([]);
});

test('no property key or cache namespace is spelled in src/ outside src/store/', () => {
  expect(literalsOutside('src/store', STORAGE_NAME)).toEqual([]);
});

// ---- The one binder: every Apps Script service is named in src/apps-script.ts alone -------------

const BINDER = 'src/apps-script.ts';
/** Apps Script's global services (Google's reference, "Services"); `console` is plain JavaScript logging. */
const GAS_GLOBALS = new Set([
  'SpreadsheetApp',
  'PropertiesService',
  'CacheService',
  'LockService',
  'UrlFetchApp',
  'ScriptApp',
  'Session',
  'HtmlService',
  'Utilities',
  'DriveApp',
  'Drive',
  'MailApp',
  'GmailApp',
  'Logger',
  'ContentService',
  'DocumentApp',
  'CardService',
  'Browser',
  'Charts',
  'XmlService',
]);

/** `line: name` of each identifier of a TypeScript source that names one of `names` as a value (not a member, a property name or a type's namespace). */
function valueUsesOf(text: string, names: ReadonlySet<string>): string[] {
  const sf = ts.createSourceFile('x.ts', text, ts.ScriptTarget.ES2020, true);
  const out: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isIdentifier(node) && names.has(node.text)) {
      const p = node.parent;
      const member =
        (ts.isPropertyAccessExpression(p) && p.name === node) ||
        ts.isQualifiedName(p) ||
        ((ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p) || ts.isPropertySignature(p) || ts.isMethodDeclaration(p)) &&
          p.name === node);
      if (!member) out.push(`${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

const srcTs = () => filesUnder('src').filter((f) => /\.ts$/.test(f));

test('the binder check sees code, not comments, members or type names', () => {
  const sample = [
    '// SpreadsheetApp.getUi() in a comment',
    "const s = 'PropertiesService';",
    'let t: GoogleAppsScript.Drive.Schema.File;',
    'const o = { Session: 1 }; o.Session;',
    'const c = CacheService.getUserCache();',
    'const f = { fetcher: UrlFetchApp };',
  ].join('\n');
  expect(valueUsesOf(sample, GAS_GLOBALS)).toEqual(['5: CacheService', '6: UrlFetchApp']);
});

test('every Apps Script service is named only in the one binder (src/apps-script.ts): features, menu, custom functions and store take it from there', () => {
  const uses = srcTs()
    .filter((f) => f !== BINDER)
    .flatMap((f) => valueUsesOf(readFileSync(join(ROOT, f), 'utf8'), GAS_GLOBALS).map((u) => `${f}:${u}`));
  expect(uses).toEqual([]);
  expect(valueUsesOf(readFileSync(join(ROOT, BINDER), 'utf8'), GAS_GLOBALS).length).toBeGreaterThan(0);
});

test('the binder imports types only, so every layer (store, custom functions, features) may use it', () => {
  const text = readFileSync(join(ROOT, BINDER), 'utf8');
  const imports = ts.createSourceFile('x.ts', text, ts.ScriptTarget.ES2020, true).statements.filter(ts.isImportDeclaration);
  expect(imports.filter((i) => !i.importClause?.isTypeOnly).map((i) => i.getText())).toEqual([]);
});

test('locks are taken only in src/store/ (LockService is bound in the binder; its document lock is used only by src/store/)', () => {
  const users = srcTs().filter(
    (f) =>
      !under(f, 'src/store') &&
      f !== BINDER &&
      valueUsesOf(readFileSync(join(ROOT, f), 'utf8'), new Set(['LockService', 'documentLock'])).length > 0,
  );
  expect(users).toEqual([]);
});

// ---- Names that say where things are ------------------------------------------------------------

/** Every folder under src/, as a path. */
function foldersUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir))
    .map((name) => join(dir, name))
    .filter((p) => statSync(join(ROOT, p)).isDirectory())
    .flatMap((p) => [p, ...foldersUnder(p)]);
}

test('no twin folder names in src/: a folder name means one place (src/scan beside src/app/scan misled)', () => {
  const byName = new Map<string, string[]>();
  for (const p of foldersUnder('src')) byName.set(p.split('/').pop()!, [...(byName.get(p.split('/').pop()!) ?? []), p]);
  expect([...byName.values()].filter((paths) => paths.length > 1)).toEqual([]);
});

/** `name: file` of every declaration a TypeScript source exports (functions, constants, classes, types); re-exports are not declarations. */
function exportedDeclarations(text: string): string[] {
  const sf = ts.createSourceFile('x.ts', text, ts.ScriptTarget.ES2020, true);
  return sf.statements.flatMap((st) => {
    if (!ts.canHaveModifiers(st) || !ts.getModifiers(st)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) return [];
    if (ts.isVariableStatement(st)) return st.declarationList.declarations.map((d) => d.name.getText(sf));
    const name = (st as ts.DeclarationStatement).name;
    return name && ts.isIdentifier(name) ? [name.text] : [];
  });
}

test('one meaning per exported name: no two files of src/ export a declaration of the same name (cellText and normalizeHeader meant two things each)', () => {
  expect(
    exportedDeclarations('export function a() {}\nexport const b = 1, c = 2;\nexport type D = 1;\nfunction e() {}\nexport { e };'),
  ).toEqual(['a', 'b', 'c', 'D']);
  const files = new Map<string, string[]>();
  for (const f of srcTs())
    for (const n of exportedDeclarations(readFileSync(join(ROOT, f), 'utf8'))) files.set(n, [...(files.get(n) ?? []), f]);
  expect([...files].filter(([, fs]) => fs.length > 1)).toEqual([]);
});
