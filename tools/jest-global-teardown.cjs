/** Removes the run's temporary folder and service bundle made by jest-global-setup.cjs. */
const { rmSync } = require('node:fs');
const { dirname } = require('node:path');

module.exports = async () => {
  const dir = process.env.SCAN_ADDON_TEST_TMPDIR;
  if (dir) rmSync(dir, { recursive: true, force: true });
  const bundle = process.env.SCAN_SERVICE_MAIN_BUNDLE;
  if (bundle) rmSync(dirname(bundle), { recursive: true, force: true });
};
