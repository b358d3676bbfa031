/**
 * For one jest run: the programs tests start as child processes, each bundled once with esbuild into
 * one CommonJS file, so that a start does not pay tsx's cost again (it transforms and resolves every
 * file on each start: about 0.4 s of CPU per local Scan Service, 0.7 s or more per `npm run local`).
 * Same code, only loaded differently:
 * - emulator/service/main.ts: spawnService (emulator/service/spawn.ts) starts it when
 *   SCAN_SERVICE_MAIN_BUNDLE names it; the tests start about 50 services.
 * - tools/local.ts: test/tools/run-local.ts runs it when SCAN_ADDON_LOCAL_BUNDLE names it.
 * Packages stay `require`d from node_modules, so the files are written under node_modules/.cache
 * (resolution goes from the file's folder); each source file keeps its own __dirname/__filename, so
 * data files, the worker thread, dist/ and the docs assets are found where they are.
 */
const { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } = require('node:fs');
const { dirname, extname, join, sep } = require('node:path');

const ROOT = join(__dirname, '..');

/** Bundles `entry` (a path from the project root) to `outfile`. */
async function bundle(entry, outfile) {
  const esbuild = require('esbuild');
  const entryPath = join(ROOT, entry);
  await esbuild.build({
    entryPoints: [entryPath],
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
            if (a.path.includes(`${sep}node_modules${sep}`)) return undefined;
            let text = readFileSync(a.path, 'utf8')
              .replace(/\b__dirname\b/g, JSON.stringify(dirname(a.path)))
              .replace(/\b__filename\b/g, JSON.stringify(a.path));
            // Bundled, the entry file is a module inside the bundle, not require.main; it is the program.
            if (a.path === entryPath) text = text.replace(/\brequire\.main === module\b/g, 'true');
            return { contents: text, loader: extname(a.path) === '.ts' ? 'ts' : 'js' };
          });
        },
      },
    ],
  });
  return outfile;
}

/** Builds both bundles into a new folder under node_modules/.cache; returns their paths. */
async function buildTestBundles() {
  const cache = join(ROOT, 'node_modules', '.cache', 'scan-service');
  mkdirSync(cache, { recursive: true });
  // Bundles of runs that never reached their teardown (killed), once a day old.
  for (const name of readdirSync(cache)) {
    const old = join(cache, name);
    if (name.startsWith('test-run-') && Date.now() - statSync(old).mtimeMs > 86_400_000) rmSync(old, { recursive: true, force: true });
  }
  const dir = mkdtempSync(join(cache, 'test-run-'));
  const [service, local] = await Promise.all([
    bundle(join('emulator', 'service', 'main.ts'), join(dir, 'service-main.cjs')),
    bundle(join('tools', 'local.ts'), join(dir, 'local.cjs')),
  ]);
  return { dir, service, local };
}

module.exports = { buildTestBundles };
