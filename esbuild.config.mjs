// Builds dist/ = exactly what `clasp push` uploads: appsscript.json, Code.js, Sidebar.html.
import { build, transform } from 'esbuild';
import { minify } from '@swc/core';
import { mkdirSync, readFileSync, writeFileSync, rmSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { collectEntryPoints, renderDeclarations, NAMESPACE } = require('./tools/build/entrypoints.cjs');
const { ADDON_SCOPES } = require('./tools/build/scopes.cjs');

const config = JSON.parse(readFileSync('addon.config.json', 'utf8'));
// ADDON_OUT_DIR lets parallel work build elsewhere; the folder is swapped in whole at the end so a
// test reading dist/ never sees half a build.
const outDir = process.env.ADDON_OUT_DIR || 'dist';
const tmp = `${outDir}.tmp-${process.pid}`;
rmSync(tmp, { recursive: true, force: true });
mkdirSync(tmp, { recursive: true });

// Code.js: one plain script. The bundle is an IIFE assigned to one global; Apps Script runs every
// file's top level on each call, so the bundle must not do work at load time (tests check it).
const bundle = await build({
  entryPoints: ['src/main.ts'],
  bundle: true,
  format: 'iife',
  globalName: NAMESPACE,
  // The V8 runtime guide (developers.google.com/apps-script/guides/v8-runtime) shows ES2015 syntax and
  // async functions and names no later edition: `?.`, `??`, object spread and the like are lowered
  // (test/build/bundle-syntax.test.ts reads the bundle; about 1 % larger).
  target: 'es2017',
  platform: 'neutral',
  write: false,
  legalComments: 'none',
  charset: 'utf8',
  // Apps Script parses the whole file on every call (each formula cell, each sidebar call), so it is
  // kept small (local names are shortened below).
  minifyWhitespace: true,
  minifySyntax: true,
  define: {
    ADDON_DEFAULT_SERVICE_URL: JSON.stringify(config.serviceUrl),
    // The scopes, what the consent screen calls each, and which feature asks for it (granular consent).
    ADDON_SCOPES: JSON.stringify(ADDON_SCOPES.map((s) => ({ scope: s.scope, consent: s.consent, need: s.need ?? '' }))),
  },
  logLevel: 'warning',
});
// Local variables and parameters get short names (about a fifth of the file); function and class
// names are kept, so a stack trace in the execution log still names every step.
// esbuild writes a class as `var Name = class …`, a variable swc would rename: those are reserved,
// also when esbuild joins it to another declaration (`var LIMITS = {…}, Name = class …`).
const classes = [...bundle.outputFiles[0].text.matchAll(/(?:\bvar|,)\s*(\w+) ?= ?class\b/g)].map((m) => m[1]);
const shortened = await minify(bundle.outputFiles[0].text, {
  compress: false,
  mangle: { keep_fnames: true, keep_classnames: true, topLevel: false, reserved: classes },
  ecma: 2017,
  format: { comments: false },
});
const entries = collectEntryPoints('src/main.ts');
const header = '// Built by esbuild.config.mjs from src/: do not edit. Entry points are declared at the end.\n';
writeFileSync(`${tmp}/Code.js`, header + shortened.code + '\n' + renderDeclarations(entries));

// Sidebar.html: one file, its CSS and script inlined (served on every open, so minified).
const sidebarJs = await build({
  entryPoints: ['sidebar/sidebar.ts'],
  bundle: true,
  format: 'iife',
  target: 'es2019',
  platform: 'browser',
  minify: true,
  write: false,
  legalComments: 'none',
  // The page is served as UTF-8 (<meta charset>): "…" is 3 bytes as itself, 6 as \u2026.
  charset: 'utf8',
  logLevel: 'warning',
});
// The CSS is minified too (served on every open like the script).
const css = (await transform(readFileSync('sidebar/style.css', 'utf8'), { loader: 'css', minify: true, target: 'chrome100' })).code;
// The page is an HtmlService template (for the initial view): scriptlet markers inside the
// inlined script or CSS would be taken as template code.
for (const [what, text] of [
  ['sidebar script', sidebarJs.outputFiles[0].text],
  ['sidebar CSS', css],
]) {
  if (/<\?|\?>/.test(text)) throw new Error(`${what} contains "<?" or "?>", which HtmlService templates would evaluate`);
}
const html = readFileSync('sidebar/index.html', 'utf8')
  .replace('<!-- inline:style.css -->', () => `<style>\n${css}</style>`)
  .replace('<!-- inline:sidebar.js -->', () => `<script>\n${sidebarJs.outputFiles[0].text.replace(/<\/script/gi, '<\\/script')}</script>`);
writeFileSync(`${tmp}/Sidebar.html`, html);

// appsscript.json: the source manifest plus the scopes (tools/build/scopes.cjs, their one list) and
// the fetch allow-list from the configured service.
const manifest = JSON.parse(readFileSync('appsscript.json', 'utf8'));
if (manifest.oauthScopes) throw new Error('appsscript.json: declare oauthScopes in tools/build/scopes.cjs, not here');
manifest.oauthScopes = ADDON_SCOPES.map((s) => s.scope);
manifest.urlFetchWhitelist = config.allowedServiceUrls.map((u) => {
  if (!/^https:\/\/[^/]+\/.*$/.test(u)) throw new Error(`allowedServiceUrls entry ${u}: Apps Script needs an https prefix with a path`);
  return u;
});
writeFileSync(`${tmp}/appsscript.json`, JSON.stringify(manifest, null, 2) + '\n');

rmSync(outDir, { recursive: true, force: true });
renameSync(tmp, outDir);
console.log(`built ${outDir}/: Code.js (${entries.length} entry points), Sidebar.html, appsscript.json`);
