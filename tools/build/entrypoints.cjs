/**
 * Finds the add-on's entry points: every function exported from src/main.ts (following re-exports),
 * with its parameter names and its JSDoc. Apps Script only sees literal top-level
 * `function NAME(...)` declarations, and Sheets only autocompletes custom functions whose
 * declaration carries a JSDoc with @customfunction; esbuild drops both, so the build emits them
 * from this list. Used by esbuild.config.mjs and by the build tests, so the list is never kept by hand.
 */
const ts = require('typescript');
const path = require('node:path');

/**
 * @param {string} mainFile path of src/main.ts
 * @returns {{name: string, params: string[], jsdoc: string, customFunction: boolean, file: string}[]}
 */
function collectEntryPoints(mainFile) {
  const configPath = path.join(path.dirname(mainFile), '..', 'tsconfig.json');
  const cfg = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(cfg.config, ts.sys, path.dirname(configPath));
  const program = ts.createProgram([mainFile], { ...parsed.options, noEmit: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(mainFile);
  if (!source) throw new Error(`cannot read ${mainFile}`);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  if (!moduleSymbol) return [];
  const out = [];
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const name = exported.getName();
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const decl = (symbol.declarations || []).find((d) => ts.isFunctionDeclaration(d) || ts.isVariableDeclaration(d));
    if (!decl) continue; // types, constants: not entry points
    let fn = decl;
    if (ts.isVariableDeclaration(decl)) {
      if (!decl.initializer || !(ts.isArrowFunction(decl.initializer) || ts.isFunctionExpression(decl.initializer))) continue;
      fn = decl.initializer;
    }
    if (name.endsWith('_')) throw new Error(`entry point ${name} ends in "_": Apps Script would hide it`);
    const params = fn.parameters.map((p) => p.name.getText());
    const holder = ts.isVariableDeclaration(decl) ? decl.parent.parent : decl;
    const text = holder.getSourceFile().getFullText();
    const ranges = ts.getLeadingCommentRanges(text, holder.getFullStart()) || [];
    const docs = ranges.map((r) => text.slice(r.pos, r.end)).filter((c) => c.startsWith('/**'));
    const jsdoc = docs.length ? docs[docs.length - 1] : '';
    out.push({
      name,
      params,
      jsdoc,
      customFunction: /@customfunction\b/.test(jsdoc),
      file: path.relative(process.cwd(), holder.getSourceFile().fileName),
    });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** Name of the bundle's namespace object in the Apps Script global scope. */
const NAMESPACE = 'ScanAddOn';

/** The top-level declarations appended to the bundle. */
function renderDeclarations(entries) {
  return entries
    .map((e) => {
      const doc = e.jsdoc ? e.jsdoc.replace(/^[ \t]+\*/gm, ' *') + '\n' : '';
      // `arguments` keeps optional parameters optional, as Sheets passes only what the user typed.
      return `${doc}function ${e.name}(${e.params.join(', ')}) {\n  return ${NAMESPACE}.${e.name}.apply(this, arguments);\n}\n`;
    })
    .join('\n');
}

module.exports = { collectEntryPoints, renderDeclarations, NAMESPACE };
