import { defineConfig } from 'vitest/config';

// `npm run mutation` (stryker.config.json): only the tests that run the broker's source in this
// process, where Stryker's instrumented src/ is what executes. The e2e*, watcher and conformance
// tests start the compiled broker from dist/ as a child process, which the instrumentation does
// not reach: a mutant "killed" there would be killed by an unmutated broker (docs/mutation.md).
export default defineConfig({
  test: {
    include: ['test/broker/**/*.test.ts'],
    exclude: ['test/broker/e2e*.test.ts', 'test/broker/watcher.test.ts', '**/node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
