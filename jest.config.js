/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  // Tests that start servers or load the bundle are slower than unit tests.
  testTimeout: 30000,
  globalSetup: '<rootDir>/tools/jest-global-setup.cjs',
  globalTeardown: '<rootDir>/tools/jest-global-teardown.cjs',
  reporters: ['default', '<rootDir>/tools/jest-summary-reporter.cjs'],
};
