import { defineConfig } from 'vitest/config';
import { dropMachineVariables } from './harness/run/environment.js';

// Here, before the workers are forked, so that neither they nor anything a test starts inherit them.
dropMachineVariables();

// `npm run test:matrix`: the slow runs kept out of `npm test` so that it stays well inside CI's
// time (test/matrix/).
export default defineConfig({
  test: {
    include: ['test/matrix/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
