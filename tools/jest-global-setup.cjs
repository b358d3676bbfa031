/**
 * Gives one jest run its own temporary folder (TMPDIR, so os.tmpdir() in tests, workers and the
 * child processes they start); jest-global-teardown.cjs removes it, so the fixtures, catalogs and
 * workbooks tests write never pile up on the machine.
 */
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

module.exports = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'scan-addon-tests-'));
  process.env.SCAN_ADDON_TEST_TMPDIR = dir;
  process.env.TMPDIR = dir;
};
