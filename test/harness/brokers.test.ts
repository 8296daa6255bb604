import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../harness/catalogue.js';
import { loadCandidate } from '../../harness/candidates/registry.js';
import { DEFAULT_STEP_TIMEOUT_MS, runScenario } from '../../harness/run/execute.js';

/**
 * The third-party brokers installed as dev dependencies really run under their adapters: each is
 * started by its own CLI, reached as deployed (mcp-remote over stdio, Civic's passthrough over
 * Streamable HTTP, mcp-hub over HTTP+SSE), and relays a control's listing and call, which a plain
 * relay passes. An error here is the adapter's or the harness's, never a verdict about the broker.
 */
const CONTROL = 'net.loopback-opted-in';

describe('the third-party broker adapters', () => {
  const [control] = loadCatalogue(CONTROL);

  for (const name of ['mcp-remote', 'civic-passthrough', 'mcp-hub']) {
    it(`${name} relays ${CONTROL}`, async () => {
      const candidate = await loadCandidate(name);
      const result = await runScenario(control!, candidate, { stepTimeoutMs: DEFAULT_STEP_TIMEOUT_MS });
      expect(result.outcome, `${result.reason ?? ''} ${JSON.stringify(result.findings)}`).toBe('pass');
    }, 30_000);
  }
});
