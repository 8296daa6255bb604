import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../harness/catalogue.js';
import { keyedFrontDoorCandidate } from '../../harness/candidates/keyed-front-door.js';
import { DEFAULT_STEP_TIMEOUT_MS } from '../../harness/run/execute.js';
import { runSuite } from '../../harness/run/suite.js';

/**
 * A front door whose only protection is a credential the adapter provides (the fixed version of a
 * published advisory has that shape): the scenarios must credit the credential with what it stops
 * and no more. The uncredentialed client and the second client with a credential of its own are
 * held; the page and the rebound name, which hold the credential, are exposed, since it checks no
 * Origin or Host; a guessed id is exposed, its ids being counted; and every control is served.
 */
const EXPECTED: Record<string, 'pass' | 'exposed'> = {
  'fdr.uncredentialed-call-refused': 'pass',
  'fdr.other-session-id-refused': 'pass',
  'fdr.hostile-origin-refused': 'exposed',
  'fdr.foreign-host-refused': 'exposed',
  'fdr.guessed-session-id-refused': 'exposed',
  'fdr.credentialed-clients-served': 'pass',
  'fdr.allowed-origin-served': 'pass',
  'fdr.own-session-id-served': 'pass',
};

describe('a front door with a credential and no other protection', () => {
  it('holds the attacks a credential stops, is exposed on the others, and passes every control', async () => {
    const scenarios = loadCatalogue().filter((scenario) => scenario.id in EXPECTED);
    expect(scenarios).toHaveLength(Object.keys(EXPECTED).length);
    const report = await runSuite(keyedFrontDoorCandidate(), scenarios, { stepTimeoutMs: DEFAULT_STEP_TIMEOUT_MS, jobs: 2 });
    const verdicts = Object.fromEntries(report.cases.map((result) => [result.id, result.outcome === 'pass' ? 'pass' : result.failure]));
    expect(verdicts).toEqual(EXPECTED);
  }, 240_000);
});
