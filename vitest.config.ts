import { defineConfig } from 'vitest/config';
import { dropMachineVariables } from './harness/run/environment.js';

// Here, before the workers are forked, so that neither they nor anything a test starts inherit them.
dropMachineVariables();

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The slow matrices: `npm run test:matrix` (vitest.matrix.config.ts); the advisories, which
    // install brokers' old versions from npm: `npm run test:advisories`.
    exclude: ['test/matrix/**', 'test/advisories/**', '**/node_modules/**'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
