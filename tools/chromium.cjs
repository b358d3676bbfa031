/**
 * Which Chromium the browser tests drive: CHROMIUM_PATH when set, else the system's
 * (/usr/bin/chromium, Debian's package) when present, else the one shipped inside the npm package
 * @sparticuz/chromium (its binary is in the package: nothing is downloaded; it is unpacked into
 * os.tmpdir() on first use, about 2 s). So `npm install` alone brings what the tests need.
 */
const { existsSync, readFileSync } = require('node:fs');
const { dirname, join } = require('node:path');

const SYSTEM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/** @returns {Promise<{path: string, source: string}>} */
async function findChromium() {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return { path: fromEnv, source: `CHROMIUM_PATH (${fromEnv})` };
  const system = SYSTEM.find((p) => existsSync(p));
  if (system) return { path: system, source: `the system's (${system})` };
  const pkg = require('@sparticuz/chromium');
  const chromium = pkg.default ?? pkg;
  // The package's exports hide its package.json: read it next to its entry point.
  const entry = require.resolve('@sparticuz/chromium');
  const version = JSON.parse(readFileSync(join(dirname(entry), '..', '..', 'package.json'), 'utf8')).version;
  const path = await chromium.executablePath();
  return { path, source: `@sparticuz/chromium ${version} from node_modules (unpacked to ${path})` };
}

module.exports = { findChromium };
