/**
 * The project's layout (README "Layout"): the add-on (src/) and the local Scan Service
 * (emulator/service/) share only contract/; product, tool and benchmark code never imports a test
 * helper (read from the import statements of every file). Inside src/, API paths are spelled only in
 * src/api/ and storage names and locks only in src/store/ (read from the literals of every file).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { filesUnder } from './files';
// One reading of literals and of storage names, shared with the privacy policy's check (tools/listing/store-kinds.ts).
import { literalsOf, STORAGE_NAME } from '../../tools/listing/store-kinds';

const ROOT = join(__dirname, '..', '..');

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

// ---- emulator/ has no import circle (type-only imports count: a circle of types is still a knot to read) ----

describe('import circles in emulator/ and src/', () => {
  /** Every file of `dir` (project-relative) with its text. */
  const sourcesUnder = (dir: string): Map<string, string> => {
    const out = new Map<string, string>();
    const walk = (rel: string) => {
      for (const name of readdirSync(join(ROOT, rel))) {
        const p = `${rel}/${name}`;
        if (name === 'node_modules' || name.startsWith('.')) continue;
        if (statSync(join(ROOT, p)).isDirectory()) walk(p);
        else if (/\.(ts|js|cjs|mjs)$/.test(name)) out.set(p, readFileSync(join(ROOT, p), 'utf8'));
      }
    };
    walk(dir);
    return out;
  };

  /** file -> the files among `sources` it imports: import, import type, export … from, import(), require(). */
  const importGraph = (sources: Map<string, string>): Map<string, string[]> => {
    const resolveIn = (from: string, spec: string): string | undefined => {
      const base = join(dirname(from), spec);
      return [base, `${base}.ts`, `${base}.js`, `${base}.cjs`, `${base}/index.ts`, `${base}/index.js`, base.replace(/\.js$/, '.ts')].find(
        (p) => sources.has(p),
      );
    };
    const graph = new Map<string, string[]>();
    for (const [file, text] of sources) {
      const targets = ts
        .preProcessFile(text, true, true)
        .importedFiles.map((i) => i.fileName)
        .filter((spec) => spec.startsWith('.'))
        .map((spec) => resolveIn(file, spec))
        .filter((t): t is string => t !== undefined);
      graph.set(file, [...new Set(targets)]);
    }
    return graph;
  };

  /** The circles: each strongly connected set of files (Tarjan), as `a -> b` lines of the imports inside it. */
  const circles = (graph: Map<string, string[]>): string[][] => {
    let next = 0;
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const out: string[][] = [];
    const visit = (v: string) => {
      index.set(v, next);
      low.set(v, next++);
      stack.push(v);
      for (const w of graph.get(v) ?? []) {
        if (!index.has(w)) {
          visit(w);
          low.set(v, Math.min(low.get(v)!, low.get(w)!));
        } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
      if (low.get(v) !== index.get(v)) return;
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        group.push(w);
      } while (w !== v);
      if (group.length > 1 || graph.get(v)!.includes(v))
        out.push(
          group
            .flatMap((a) =>
              graph
                .get(a)!
                .filter((b) => group.includes(b))
                .map((b) => `${a} -> ${b}`),
            )
            .sort(),
        );
    };
    for (const v of graph.keys()) if (!index.has(v)) visit(v);
    return out;
  };

  test('the circle check sees type-only imports, re-exports and require()', () => {
    const sample = new Map([
      ['e/a.ts', "import type { B } from './b';"],
      ['e/b.ts', "export { C } from './c';"],
      ['e/c.ts', "const a = require('./a');"],
      ['e/d.ts', "import { A } from './a';"],
    ]);
    expect(circles(importGraph(sample))).toEqual([['e/a.ts -> e/b.ts', 'e/b.ts -> e/c.ts', 'e/c.ts -> e/a.ts']]);
  });

  test('no two files of emulator/ import each other, directly or round a circle (type-only imports included)', () => {
    expect(circles(importGraph(sourcesUnder('emulator')))).toEqual([]);
  });
  test('no two files of src/ import each other either (src/scan/attributes.ts and decide.ts did, through a type)', () => {
    // main.ts names its own exports' type (typeof import('./main')) for the sidebar check: a file, not a circle.
    const graph = new Map([...importGraph(sourcesUnder('src'))].map(([f, ts]) => [f, ts.filter((t) => t !== f)]));
    expect(circles(graph)).toEqual([]);
  });
});

// ---- emulator/service/: one shape for every API area folder (emulator/service/README.md, "Parts") ----

describe('the folders of the local service API areas', () => {
  const SERVICE = 'emulator/service';
  /** Folders that are parts the areas use, not API areas. */
  const NOT_AREAS = ['shared', 'worker', 'engine', 'catalog', 'data'];
  const areaFolders = readdirSync(join(ROOT, SERVICE)).filter(
    (name) => statSync(join(ROOT, SERVICE, name)).isDirectory() && !NOT_AREAS.includes(name),
  );
  const filesOf = (area: string) => readdirSync(join(ROOT, SERVICE, area)).sort();
  const read = (area: string, file: string) => readFileSync(join(ROOT, SERVICE, area, file), 'utf8');
  /** A bulk area is its definition alone: shared/bulk.ts gives its routes, shared/bulk-area.ts its table. */
  const isBulk = (area: string) => filesOf(area).includes('index.ts') && /\bdefineBulkArea\(/.test(read(area, 'index.ts'));

  test('the areas are the folders areas.ts registers, each through its index.ts', () => {
    const specs = ts
      .preProcessFile(readFileSync(join(ROOT, SERVICE, 'areas.ts'), 'utf8'), true, true)
      .importedFiles.map((i) => i.fileName)
      .filter((s) => areaFolders.some((a) => s === `./${a}` || s.startsWith(`./${a}/`)));
    expect(specs.sort()).toEqual(areaFolders.map((a) => `./${a}`).sort());
    expect(areaFolders.filter((a) => !filesOf(a).includes('index.ts'))).toEqual([]);
  });

  test('an area with handlers of its own has them in routes.ts, and its tables (CREATE TABLE) only in tables.ts', () => {
    expect(areaFolders.filter((a) => !isBulk(a) && !filesOf(a).includes('routes.ts'))).toEqual([]);
    const sqlElsewhere = areaFolders.flatMap((a) =>
      filesOf(a)
        .filter((f) => f !== 'tables.ts' && /\bCREATE TABLE\b/.test(read(a, f)))
        .map((f) => `${a}/${f}`),
    );
    expect(sqlElsewhere).toEqual([]);
  });

  test('a bulk area is index.ts alone; further files than index.ts, routes.ts, tables.ts only in an area with both', () => {
    const extra = (a: string) => filesOf(a).filter((f) => !['index.ts', 'routes.ts', 'tables.ts', 'README.md'].includes(f));
    expect(areaFolders.filter((a) => isBulk(a) && filesOf(a).join() !== 'index.ts')).toEqual([]);
    expect(
      areaFolders.filter((a) => extra(a).length > 0 && !(filesOf(a).includes('routes.ts') && filesOf(a).includes('tables.ts'))),
    ).toEqual([]);
  });
});

// ---- Layers: no folder-level circle (src/README.md "Layers") ----------------------------------

/**
 * The rooms of `base` (a folder's children: `src/app/lists`, or a file directly in it such as
 * `src/app/context.ts`) and the imports between them: `from -> to: file -> file` for each.
 */
function roomImports(base: string, edges: ReadonlyArray<readonly [string, string]>): Map<string, Map<string, string[]>> {
  const room = (p: string): string | null =>
    under(p, base) && p !== base
      ? p
          .slice(base.length + 1)
          .split('/')[0]
          .replace(/\.[cm]?[jt]s$/, '')
      : null;
  const out = new Map<string, Map<string, string[]>>();
  for (const [f, t] of edges) {
    const a = room(f);
    const b = room(t);
    if (a === null || b === null || a === b) continue;
    if (!out.has(a)) out.set(a, new Map());
    const to = out.get(a)!;
    to.set(b, (to.get(b) || []).concat([`${f} -> ${t}`]));
  }
  return out;
}

/**
 * Every circle of rooms (a strongly connected set of two or more rooms, Tarjan's algorithm), each
 * with the imports that tie it, so a failure names what to cut.
 */
function circles(graph: Map<string, Map<string, string[]>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const nodes = new Set<string>([...graph.keys(), ...[...graph.values()].flatMap((m) => [...m.keys()])]);
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of (graph.get(v) || new Map()).keys()) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const set: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        set.push(w);
      } while (w !== v);
      if (set.length > 1) {
        set.sort();
        const ties = set.flatMap((a) => set.flatMap((b) => graph.get(a)?.get(b) || []));
        found.push([set.join(' <-> '), ...ties]);
      }
    }
  };
  for (const v of [...nodes].sort()) if (!index.has(v)) visit(v);
  return found;
}

const srcImports = (): Array<readonly [string, string]> =>
  filesUnder('src').flatMap((f) => importsOf(f).map((t) => [f.replace(/\.[cm]?[jt]s$/, ''), t] as const));

test('the circle finder finds a circle of rooms and names the imports that tie it', () => {
  const edges = [
    ['src/app/a/x', 'src/app/b/y'],
    ['src/app/b/z', 'src/app/c/w'],
    ['src/app/c/w', 'src/app/a/v'],
    ['src/app/c/w', 'src/app/services'],
    ['src/app/a/x', 'src/app/a/v'],
  ] as const;
  expect(circles(roomImports('src/app', edges))).toEqual([
    ['a <-> b <-> c', 'src/app/a/x -> src/app/b/y', 'src/app/b/z -> src/app/c/w', 'src/app/c/w -> src/app/a/v'],
  ]);
  expect(circles(roomImports('src/app', edges.slice(0, 2)))).toEqual([]);
});

test('the features of src/app form layers: no folder imports one that imports it back, directly or round about', () => {
  expect(circles(roomImports('src/app', srcImports()))).toEqual([]);
});

test('the top folders of src/ form layers: no folder imports one that imports it back, directly or round about', () => {
  expect(circles(roomImports('src', srcImports()))).toEqual([]);
});

// ---- Layers: the allow-list of src/README.md "Layers" holds against the real imports --------------

/**
 * The layer tables of a README: for each table whose header's second cell starts with a backticked
 * folder (`src/`, `src/app/`), that folder and its lines from the top, each the names it lists
 * (backticked, outside parentheses; a trailing "/" or ".ts" dropped).
 */
function layerTables(readme: string): Map<string, string[][]> {
  const out = new Map<string, string[][]>();
  let base: string | null = null;
  for (const line of readme.split('\n')) {
    const cells = line.startsWith('|')
      ? line
          .split('|')
          .slice(1, -1)
          .map((c) => c.trim())
      : null;
    const head = cells && cells[0] === 'layer' ? /^`([^`]+)\/`/.exec(cells[1] ?? '') : null;
    if (head) {
      base = head[1];
      out.set(base, []);
    } else if (!cells) base = null;
    else if (base && /^\d+$/.test(cells[0])) {
      const names = [...(cells[1] ?? '').replace(/\([^)]*\)/g, '').matchAll(/`([^`]+)`/g)].map((m) => m[1].replace(/\/$|\.ts$/g, ''));
      out.get(base)!.push(names);
    }
  }
  return out;
}

/** What breaks the allow-list: rooms of `base` not listed or listed twice, listed rooms that do not exist, imports not going to a lower line. */
function layerViolations(layers: string[][], rooms: readonly string[], imports: Map<string, Map<string, string[]>>): string[] {
  const line = new Map<string, number>();
  const out: string[] = [];
  layers.forEach((names, i) =>
    names.forEach((n) => {
      if (line.has(n)) out.push(`${n}: listed twice`);
      line.set(n, i);
    }),
  );
  for (const r of rooms) if (!line.has(r)) out.push(`${r}: not in the layers`);
  for (const n of line.keys()) if (!n.startsWith('../') && !rooms.includes(n)) out.push(`${n}: listed but not there`);
  for (const [a, to] of imports)
    for (const [b, ties] of to)
      if (line.has(a) && line.has(b) && line.get(b)! <= line.get(a)!)
        out.push(`${a} (line ${line.get(a)! + 1}) -> ${b} (line ${line.get(b)! + 1}): ${ties.join(', ')}`);
  return out.sort();
}

/** The rooms of a folder: its folders, and its files less declarations and Markdown. */
const roomsOf = (base: string): string[] =>
  readdirSync(join(ROOT, base))
    .filter((n) => statSync(join(ROOT, base, n)).isDirectory() || (/\.ts$/.test(n) && !/\.d\.ts$/.test(n)))
    .map((n) => n.replace(/\.ts$/, ''));

const LAYERS_README = readFileSync(join(ROOT, 'src', 'README.md'), 'utf8');

test('the layers check reads the README tables and fails when their order and the imports disagree', () => {
  const readme = [
    '| layer | `src/app/` (features) |',
    '| ----- | --- |',
    '| 1 | `results/` (imports, see `x/y.ts`) |',
    '| 2 | `scan/`, `context.ts` |',
    '',
    'prose | not a table',
  ].join('\n');
  const layers = layerTables(readme);
  expect([...layers]).toEqual([['src/app', [['results'], ['scan', 'context']]]]);
  const edges = [
    ['src/app/results/import', 'src/app/scan/schedule'],
    ['src/app/scan/send', 'src/app/context'],
  ] as const;
  const rooms = ['results', 'scan', 'context'];
  expect(layerViolations(layers.get('src/app')!, rooms, roomImports('src/app', edges))).toEqual([
    'scan (line 2) -> context (line 2): src/app/scan/send -> src/app/context',
  ]);
  // The same code with the README's lines the other way round: the import running up is named.
  const swapped = [['scan', 'context'], ['results']];
  expect(layerViolations(swapped, rooms, roomImports('src/app', edges.slice(0, 1)))).toEqual([
    'results (line 2) -> scan (line 1): src/app/results/import -> src/app/scan/schedule',
  ]);
  expect(layerViolations([['results'], ['scan']], rooms, new Map())).toEqual(['context: not in the layers']);
  expect(
    layerViolations(
      [
        ['results', 'gone'],
        ['scan', 'context'],
      ],
      rooms,
      new Map(),
    ),
  ).toEqual(['gone: listed but not there']);
});

test.each(['src', 'src/app'])(
  'src/README.md "Layers" is the allow-list of %s: every room listed once, every import to a lower line',
  (base) => {
    const layers = layerTables(LAYERS_README).get(base);
    expect(layers?.length).toBeGreaterThan(2);
    expect(layerViolations(layers!, roomsOf(base), roomImports(base, srcImports()))).toEqual([]);
    // Read upside down, the same README fails against the same imports: the check sees the order.
    expect(layerViolations([...layers!].reverse(), roomsOf(base), roomImports(base, srcImports()))).not.toEqual([]);
  },
);

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
