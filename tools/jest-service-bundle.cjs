/**
 * For one jest run: emulator/service/main.ts bundled once with esbuild into one CommonJS file, which
 * spawnService (emulator/service/spawn.ts) starts instead of main.ts under tsx when
 * SCAN_SERVICE_MAIN_BUNDLE names it. Same code; about 0.4 s of CPU less per started service (tsx
 * transforms and resolves every file on each start), and the tests start about 50 services.
 * Packages stay `require`d from node_modules, so the file is written under node_modules/.cache
 * (resolution goes from the file's folder); each file's own __dirname/__filename are kept as the
 * source file's, so data files, the worker thread and the docs assets are found where they are.
 */
const { mkdirSync, mkdtempSync, readFileSync } = require('node:fs');
const { dirname, extname, join } = require('node:path');

const ROOT = join(__dirname, '..');

/** Builds the bundle; returns its path. */
async function buildServiceBundle() {
  const esbuild = require('esbuild');
  const cache = join(ROOT, 'node_modules', '.cache', 'scan-service');
  mkdirSync(cache, { recursive: true });
  const outfile = join(mkdtempSync(join(cache, 'test-run-')), 'main.cjs');
  await esbuild.build({
    entryPoints: [join(ROOT, 'emulator', 'service', 'main.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    outfile,
    logLevel: 'warning',
    plugins: [
      {
        name: 'own-dirname',
        setup(build) {
          build.onLoad({ filter: /\.(ts|js|cjs|mjs)$/ }, (a) => {
            if (a.path.includes(`${join('node_modules', '')}`)) return undefined;
            const text = readFileSync(a.path, 'utf8')
              .replace(/\b__dirname\b/g, JSON.stringify(dirname(a.path)))
              .replace(/\b__filename\b/g, JSON.stringify(a.path));
            return { contents: text, loader: extname(a.path) === '.ts' ? 'ts' : 'js' };
          });
        },
      },
    ],
  });
  return outfile;
}

module.exports = { buildServiceBundle };
