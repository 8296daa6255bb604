// The OAuth sign-in scenarios (crd.oauth-*) and who they apply to. Only a broker that signs in
// with OAuth opens a URL a server chose: for one that does not (the reference, which sends the
// operator's per-host tokens and never signs in; passthrough, which has no OAuth client) the
// scenarios are unsupported, never held for free. Run anyway, with the hook declared, the
// reference and passthrough open nothing: the attacks could not expose them, which is why the
// hook decides, not the rule that passthrough is exposed on every attack that applies to it.

import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../harness/catalogue.js';
import { passthroughCandidate } from '../../harness/candidates/passthrough.js';
import { referenceCandidate } from '../../harness/candidates/reference.js';
import { hooksOf } from '../../harness/candidates/hooks.js';
import { requiredHooks } from '../../harness/expect/plan.js';
import type { Candidate } from '../../harness/candidates/types.js';
import { runScenario } from '../../harness/run/execute.js';

const scenarios = new Map(loadCatalogue().map((scenario) => [scenario.id, scenario]));
const ATTACKS = ['crd.oauth-userinfo-payload', 'crd.oauth-path-payload', 'crd.oauth-scheme-payload', 'crd.oauth-endpoints-metadata-address'];
const CONTROL = 'crd.oauth-sign-in-opened';
/** A start that waits for a sign-in waits this long; nothing here signs in. */
const STEP_TIMEOUT_MS = 5_000;

/** The candidate as if it declared an OAuth client: the scenarios then run against it. */
const declaringOauth = (candidate: Candidate): Candidate => ({ ...candidate, info: { ...candidate.info, oauthClient: true } });

describe('the OAuth sign-in scenarios', () => {
  it('pair each attack with the honest sign-in', () => {
    for (const id of ATTACKS) expect(scenarios.get(id)).toMatchObject({ kind: 'attack', control: CONTROL });
    expect(scenarios.get(CONTROL)?.kind).toBe('control');
  });

  it('need the oauth-client hook, whatever they check: their server serves nobody who has not signed in', () => {
    for (const id of [...ATTACKS, CONTROL]) expect(requiredHooks(scenarios.get(id)!), id).toContain('oauth-client');
    expect(hooksOf(referenceCandidate()).has('oauth-client')).toBe(false);
    expect(hooksOf(declaringOauth(referenceCandidate())).has('oauth-client')).toBe(true);
  });

  for (const [name, make] of [['reference', () => referenceCandidate()], ['passthrough', passthroughCandidate]] as const) {
    it(`are unsupported for ${name}, which does no OAuth`, async () => {
      for (const id of [...ATTACKS, CONTROL]) {
        const result = await runScenario(scenarios.get(id)!, make(), { stepTimeoutMs: STEP_TIMEOUT_MS });
        expect(result.outcome, id).toBe('unsupported');
        expect(result.reason).toContain('oauth-client');
      }
    });

    it(`find ${name}, run with the hook declared, opening nothing a server chose`, async () => {
      const result = await runScenario(scenarios.get('crd.oauth-userinfo-payload')!, declaringOauth(make()), { stepTimeoutMs: STEP_TIMEOUT_MS });
      expect(result.findings, result.reason).toEqual([]);
      expect(result.outcome).toBe('pass');
      // And so it cannot pass the control: it opens no sign-in page either.
      const control = await runScenario(scenarios.get(CONTROL)!, declaringOauth(make()), { stepTimeoutMs: STEP_TIMEOUT_MS });
      expect(control.findings.map((finding) => [finding.check, finding.observed])).toEqual([['opened.sign_in', 'no launch']]);
    }, 60_000);
  }
});
