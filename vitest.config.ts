import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The slow matrices: `npm run test:matrix` (vitest.matrix.config.ts).
    exclude: ['test/matrix/**', '**/node_modules/**'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
