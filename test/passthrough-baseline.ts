// The passthrough baseline: the relay that checks nothing must be exposed on every attack it runs
// and pass every control, or a scenario could not fail. `npm test` runs it on one shard of the
// catalogue (test/conformance.test.ts: a quarter, attacks with their controls, the same quarter
// every run) to stay inside CI's time; `npm run test:matrix` on the whole catalogue
// (test/matrix/passthrough-baseline.test.ts); test/harness/protocol-verdicts.test.ts holds the
// committed report, made on the whole catalogue, to every case of it.

import { beforeAll, describe, expect, it } from 'vitest';
import { passthroughCandidate } from '../harness/candidates/passthrough.js';
import { requiredHooks } from '../harness/expect/plan.js';
import { DEFAULT_STEP_TIMEOUT_MS } from '../harness/run/execute.js';
import type { CaseResult } from '../harness/run/outcome.js';
import { defaultJobs } from '../harness/run/pool.js';
import { runSuite } from '../harness/run/suite.js';
import type { Scenario } from '../harness/scenario/types.js';

/** The failure details, so a red test says what was expected and what was observed. */
export const explain = (result: CaseResult | undefined) =>
  JSON.stringify({ outcome: result?.outcome, failure: result?.failure, reason: result?.reason, findings: result?.findings, notes: result?.notes });

/**
 * Scenarios whose server serves nobody who has not signed in with OAuth apply only to a broker
 * that signs in (the oauth-client hook). Neither the reference (per-host tokens from the
 * operator, no OAuth) nor passthrough signs in: for both they are unsupported, never held or
 * exposed for free (test/harness/oauth-sign-in.test.ts runs them with the hook declared).
 */
export const signInOnly = (scenarios: readonly Scenario[]): Set<string> => new Set(scenarios.filter((s) => requiredHooks(s).includes('oauth-client')).map((s) => s.id));

/**
 * One worker per core (the command line's default): a scenario is mostly CPU, and a third worker
 * on CI's two cores starved its neighbours into timeouts (the 10 s initialize of a passthrough
 * beside a 64 MiB answer). Scenarios that measure time or memory run alone (harness/run/alone.ts).
 * vitest itself runs one file at a time there (its forks pool's default, cores - 1).
 */
export const runOf = (scenarios: readonly Scenario[]) => (candidate: Parameters<typeof runSuite>[0]) =>
  runSuite(candidate, scenarios, { stepTimeoutMs: DEFAULT_STEP_TIMEOUT_MS, jobs: defaultJobs() });

/** Runs passthrough on `scenarios` and expects every attack exposed, every control passed. */
export function describePassthroughBaseline(what: string, scenarios: readonly Scenario[]): void {
  const unsigned = signInOnly(scenarios);
  const attacks = scenarios.filter((s) => s.kind === 'attack' && !unsigned.has(s.id)).map((s) => s.id);
  const controls = scenarios.filter((s) => s.kind === 'control' && !unsigned.has(s.id)).map((s) => s.id);

  describe(`the passthrough baseline is exposed on every attack and passes every control (${what})`, () => {
    let results: Map<string, CaseResult>;
    beforeAll(async () => {
      const report = await runOf(scenarios)(passthroughCandidate());
      results = new Map(report.cases.map((c) => [c.id, c]));
    }, 900_000);

    it.each(attacks)('attack %s is exposed', (id) => {
      const result = results.get(id);
      expect({ outcome: result?.outcome, failure: result?.failure }, explain(result)).toEqual({ outcome: 'fail', failure: 'exposed' });
    });

    it.each(controls)('control %s passes', (id) => {
      expect(results.get(id)?.outcome, explain(results.get(id))).toBe('pass');
    });

    it.each([...unsigned])('%s, which needs a broker that signs in, is unsupported', (id) => {
      expect(results.get(id)?.outcome, explain(results.get(id))).toBe('unsupported');
    });
  });
}
