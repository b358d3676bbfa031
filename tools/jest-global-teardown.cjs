/** Removes the run's temporary folder and bundles made by jest-global-setup.cjs. */
const { rmSync } = require('node:fs');

module.exports = async () => {
  const dir = process.env.SCAN_ADDON_TEST_TMPDIR;
  if (dir) rmSync(dir, { recursive: true, force: true });
  const bundles = process.env.SCAN_ADDON_TEST_BUNDLES;
  if (bundles) rmSync(bundles, { recursive: true, force: true });
};
