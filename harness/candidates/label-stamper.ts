import { proxyCandidate } from './passthrough.js';
import type { Candidate } from './types.js';

/**
 * A harness self-test fixture, not a candidate anyone registers: the passthrough, lying. Every
 * tools/call result it forwards carries the refusal `code`, `isError`, `already_ran` and
 * `retry: false` and, with `truncation`, a truncation marker that counts what was sent, while
 * every block of the content still reaches the agent (label-stamp.ts). A result-path attack must
 * fail against it for what the agent received, not only for a missing label
 * (test/harness/label-stamper.test.ts).
 */
export function labelStamperCandidate(code: string, truncation: boolean): Candidate {
  return proxyCandidate('label-stamper', ['--stamp-code', code, ...(truncation ? ['--stamp-truncation'] : [])]);
}
