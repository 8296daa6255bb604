import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../harness/catalogue.js';
import { loadCandidate } from '../../harness/candidates/registry.js';
import { packageRoot } from '../../harness/paths.js';
import { DEFAULT_STEP_TIMEOUT_MS } from '../../harness/run/execute.js';
import { defaultJobs } from '../../harness/run/pool.js';
import { runSuite } from '../../harness/run/suite.js';
import type { Report } from '../../harness/report/summary.js';

/**
 * The whole catalogue against a candidate that never answers anything, with every default the
 * command line has (step timeout, budgets, jobs): it must cost at most five minutes, and not one
 * scenario may pass (docs/running.md, "Budgets").
 */
const FIVE_MINUTES_MS = 5 * 60_000;
const scenarios = loadCatalogue();

describe('a candidate that never answers anything', () => {
  let report: Report;
  beforeAll(async () => {
    const candidate = await loadCandidate(join(packageRoot, 'test', 'fixtures', 'adapters', 'broker-never-answers.py'));
    try {
      report = await runSuite(candidate, scenarios, { stepTimeoutMs: DEFAULT_STEP_TIMEOUT_MS, jobs: defaultJobs() });
    } finally {
      await candidate.dispose?.();
    }
  }, FIVE_MINUTES_MS + 60_000);

  it('costs the whole catalogue at most five minutes', () => {
    expect(report.cases).toHaveLength(scenarios.length);
    expect(report.timing!.wall_ms).toBeLessThanOrEqual(FIVE_MINUTES_MS);
  });

  it('passes nothing: every scenario is an error, a failure or unsupported', () => {
    expect(report.cases.filter((c) => c.outcome === 'pass').map((c) => c.id)).toEqual([]);
    expect(report.summary.attacks_held).toBe(0);
  });
});
