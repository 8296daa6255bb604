import { defineConfig } from 'vitest/config';
import { dropMachineVariables } from './harness/run/environment.js';

// Here, before the workers are forked, so that neither they nor anything a test starts inherit them.
dropMachineVariables();

// `npm run test:advisories`: published advisories run on the vulnerable and the fixed version of
// each broker (test/advisories/, docs/advisories.md). Each version is installed from npm on its
// first run, so these stay out of `npm test`.
export default defineConfig({
  test: {
    include: ['test/advisories/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 300_000,
  },
});
