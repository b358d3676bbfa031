/**
 * The bundle's syntax is what Google documents for the V8 runtime. The V8 runtime guide
 * (developers.google.com/apps-script/guides/v8-runtime, "Modern ECMAScript syntax" and "Improved
 * function detection") shows ES2015 syntax and `async function` (ES2017), and names no later
 * edition; nothing there promises ES2018-2020 syntax (`?.`, `??`, object spread, optional catch
 * binding, regex named groups). So esbuild targets es2017 (esbuild.config.mjs), and this test reads the
 * BUILT dist/Code.js for any syntax of a later edition.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';

const dist = resolve(join(__dirname, '..', '..'), process.env.ADDON_OUT_DIR || 'dist');

/** Every construct newer than ES2017 in the source, as "what (line)". */
function laterSyntax(text: string): string[] {
  const sf = ts.createSourceFile('Code.js', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const found: string[] = [];
  const at = (n: ts.Node, what: string) => found.push(`${what} (line ${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1})`);
  const visit = (n: ts.Node): void => {
    if ((ts.isPropertyAccessExpression(n) || ts.isElementAccessExpression(n) || ts.isCallExpression(n)) && n.questionDotToken)
      at(n, 'optional chaining ?. (ES2020)');
    if (ts.isBinaryExpression(n)) {
      const op = n.operatorToken.kind;
      if (op === ts.SyntaxKind.QuestionQuestionToken) at(n, 'nullish coalescing ?? (ES2020)');
      if (
        op === ts.SyntaxKind.QuestionQuestionEqualsToken ||
        op === ts.SyntaxKind.BarBarEqualsToken ||
        op === ts.SyntaxKind.AmpersandAmpersandEqualsToken
      )
        at(n, 'logical assignment (ES2021)');
    }
    if (ts.isSpreadAssignment(n)) at(n, 'object spread (ES2018)');
    if (ts.isBindingElement(n) && n.dotDotDotToken && ts.isObjectBindingPattern(n.parent)) at(n, 'object rest (ES2018)');
    if (ts.isCatchClause(n) && !n.variableDeclaration) at(n, 'optional catch binding (ES2019)');
    if (ts.isBigIntLiteral(n)) at(n, 'BigInt literal (ES2020)');
    if (ts.isNumericLiteral(n) && n.getText(sf).includes('_')) at(n, 'numeric separator (ES2021)');
    if (ts.isForOfStatement(n) && n.awaitModifier) at(n, 'for await (ES2018)');
    if (ts.isRegularExpressionLiteral(n)) {
      const [, body, flags] = /^\/(.*)\/(\w*)$/s.exec(n.text) ?? ['', '', ''];
      if (/[sd]/.test(flags)) at(n, `regex flag ${flags} (ES2018+)`);
      if (/\(\?<[=!]|\(\?<\w/.test(body)) at(n, 'regex lookbehind or named group (ES2018)');
      if (/\\[pP]\{/.test(body) && flags.includes('u')) at(n, 'regex property escape (ES2018)');
    }
    if (ts.isClassDeclaration(n) || ts.isClassExpression(n))
      for (const m of n.members)
        if (ts.isPropertyDeclaration(m) || ts.isClassStaticBlockDeclaration(m)) at(m, 'class field or static block (ES2022)');
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

test('dist/Code.js uses no syntax newer than ES2017, the last edition the V8 runtime guide shows (guides/v8-runtime)', () => {
  expect(laterSyntax(readFileSync(join(dist, 'Code.js'), 'utf8'))).toEqual([]);
});

test('the check finds each later construct', () => {
  const sample = [
    'a?.b;',
    'a ?? b;',
    'x = {...y};',
    'const {p, ...q} = z;',
    'try { f(); } catch { g(); }',
    '/(?<y>\\d{4})/;',
    '/a.b/s;',
    'class K { f = 1; }',
  ].join('\n');
  expect(laterSyntax(sample).map((s) => s.replace(/ \(line \d+\)$/, ''))).toEqual([
    'optional chaining ?. (ES2020)',
    'nullish coalescing ?? (ES2020)',
    'object spread (ES2018)',
    'object rest (ES2018)',
    'optional catch binding (ES2019)',
    'regex lookbehind or named group (ES2018)',
    'regex flag s (ES2018+)',
    'class field or static block (ES2022)',
  ]);
  expect(laterSyntax('async function f() { const [a, ...b] = await g(); return `${a}` + (() => b)(); }')).toEqual([]);
});
