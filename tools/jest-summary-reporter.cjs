/**
 * Prints the plain closing line CI reads ("Tests: N passed, N failed, N skipped"), since jest's own
 * summary ("Tests: 3 passed, 3 total") is not in that form.
 */
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const browser = process.env.SCAN_ADDON_CHROMIUM_SOURCE;
    if (browser) process.stdout.write(`\nBrowser tests used Chromium: ${browser}`);
    process.stdout.write(`\nTests: ${results.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  }
}
module.exports = SummaryReporter;
