/**
 * Gives one jest run its own temporary folder (TMPDIR, so os.tmpdir() in tests, workers and the
 * child processes they start); jest-global-teardown.cjs removes it, so the fixtures, catalogs and
 * workbooks tests write never pile up on the machine.
 * Also finds the Chromium the sidebar tests drive once for all workers (CHROMIUM_PATH) and says
 * which it is, and bundles the programs tests start as child processes once for the run
 * (jest-bundles.cjs: SCAN_SERVICE_MAIN_BUNDLE, SCAN_ADDON_LOCAL_BUNDLE); the teardown removes them.
 */
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { findChromium } = require('./chromium.cjs');
const { buildTestBundles } = require('./jest-bundles.cjs');

module.exports = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'scan-addon-tests-'));
  process.env.SCAN_ADDON_TEST_TMPDIR = dir;
  process.env.TMPDIR = dir;
  const [{ path, source }, bundles] = await Promise.all([findChromium(), buildTestBundles()]);
  process.env.SCAN_ADDON_TEST_BUNDLES = bundles.dir;
  process.env.SCAN_SERVICE_MAIN_BUNDLE = bundles.service;
  process.env.SCAN_ADDON_LOCAL_BUNDLE = bundles.local;
  process.env.CHROMIUM_PATH = path;
  process.env.SCAN_ADDON_CHROMIUM_SOURCE = source;
  process.stdout.write(`\nBrowser tests use Chromium: ${source}\n`);
};
