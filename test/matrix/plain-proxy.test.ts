import { beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../harness/catalogue.js';
import { plainProxyCandidate } from '../../harness/candidates/passthrough.js';
import type { CaseResult } from '../../harness/run/outcome.js';
import { DEFAULT_STEP_TIMEOUT_MS } from '../../harness/run/execute.js';
import { runSuite } from '../../harness/run/suite.js';
import type { Report } from '../../harness/report/summary.js';

/**
 * A third whole-catalogue run, of the proxy that offers no hook: slow, so it is in
 * `npm run test:matrix` rather than `npm test` (README, Set-up). Its committed report,
 * reports/brokers/plain-proxy/, is made by the same run through the command line
 * (`npm run report:broker -- plain-proxy`).
 */
const scenarios = loadCatalogue();

/** The failure details, so a red test says what was expected and what was observed. */
const explain = (result: CaseResult | undefined) =>
  JSON.stringify({ outcome: result?.outcome, failure: result?.failure, reason: result?.reason, findings: result?.findings, notes: result?.notes });

describe('a plain proxy that offers no hook still gets a verdict on nearly everything', () => {
  let report: Report;
  beforeAll(async () => {
    report = await runSuite(plainProxyCandidate(), scenarios, { stepTimeoutMs: DEFAULT_STEP_TIMEOUT_MS });
  }, 900_000);

  it('at least 90% of the catalogue ends in pass or fail, none in error', () => {
    const judged = report.cases.filter((c) => c.outcome === 'pass' || c.outcome === 'fail').length;
    expect(report.cases.filter((c) => c.outcome === 'error').map(explain)).toEqual([]);
    expect(judged / report.cases.length).toBeGreaterThanOrEqual(0.9);
  });

  it('is unsupported only where a hook the scenario cannot run without is missing', () => {
    for (const c of report.cases.filter((c) => c.outcome === 'unsupported')) expect(c.reason, c.id).toMatch(/lacks the .* hook/);
  });

  it('is exposed on every attack it runs, and says whether it claimed the protection', () => {
    for (const c of report.cases.filter((c) => c.kind === 'attack' && c.outcome !== 'unsupported')) {
      expect(c.failure, `${c.id}: ${explain(c)}`).toBe('exposed');
      expect(c.claimed, c.id).toBe(c.claims.every((claim) => claim === 'listing' || claim === 'calls'));
    }
  });
});
