import { proxyCandidate } from './passthrough.js';
import type { Candidate } from './types.js';

/**
 * A harness self-test fixture, not a candidate anyone registers: the passthrough, forwarding each
 * notification only once the agent sends its next line or the server ends (passthrough-proxy.ts
 * `--hold-notices`): after the call's answer, as a broker on HTTP can that sends a call's notices
 * on its GET stream. What it forwards late still reached the agent: a notification attack must
 * fail against it, and a control still pass (test/harness/late-notices.test.ts).
 */
export function lateNoticesCandidate(): Candidate {
  return proxyCandidate('late-notices', ['--hold-notices']);
}
