/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  // Tests that start servers or load the bundle are slower than unit tests.
  testTimeout: 30000,
  // On two cores three workers (jest's default there is one): much of a suite's time is spent
  // waiting on a child process (the service, `npm run local`, Chromium) or on real time (webhook
  // retries, the list sync's pacing), which the other workers fill; measured on two cores, three
  // workers took 6-12% less time than two. Suites are independent: every server listens on a free
  // port, every file goes to its own mkdtemp folder under the run's TMPDIR, every service has its
  // own in-memory or per-test database.
  maxWorkers: Math.max(3, require('node:os').availableParallelism() - 1),
  globalSetup: '<rootDir>/tools/jest-global-setup.cjs',
  globalTeardown: '<rootDir>/tools/jest-global-teardown.cjs',
  reporters: ['default', '<rootDir>/tools/jest-summary-reporter.cjs'],
};
