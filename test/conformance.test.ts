import { beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../harness/catalogue.js';
import { passthroughCandidate } from '../harness/candidates/passthrough.js';
import { referenceCandidate } from '../harness/candidates/reference.js';
import type { Candidate } from '../harness/candidates/types.js';
import type { CaseResult } from '../harness/run/outcome.js';
import { DEFAULT_STEP_TIMEOUT_MS } from '../harness/run/execute.js';
import { runSuite } from '../harness/run/suite.js';

const scenarios = loadCatalogue();
const attacks = scenarios.filter((s) => s.kind === 'attack').map((s) => s.id);
const controls = scenarios.filter((s) => s.kind === 'control').map((s) => s.id);

async function outcomes(candidate: Candidate): Promise<Map<string, CaseResult>> {
  const report = await runSuite(candidate, scenarios, { stepTimeoutMs: DEFAULT_STEP_TIMEOUT_MS });
  return new Map(report.cases.map((c) => [c.id, c]));
}

/** The failure details, so a red test says what was expected and what was observed. */
const explain = (result: CaseResult | undefined) => JSON.stringify({ reason: result?.reason, findings: result?.findings, notes: result?.notes });

describe('the reference broker passes the whole catalogue', () => {
  let results: Map<string, CaseResult>;
  beforeAll(async () => {
    results = await outcomes(referenceCandidate());
  }, 600_000);

  it.each(scenarios.map((s) => s.id))('%s', (id) => {
    expect(results.get(id)?.outcome, explain(results.get(id))).toBe('pass');
  });
});

describe('the passthrough baseline fails every attack and passes every control', () => {
  let results: Map<string, CaseResult>;
  beforeAll(async () => {
    results = await outcomes(passthroughCandidate());
  }, 600_000);

  it.each(attacks)('attack %s fails', (id) => {
    expect(results.get(id)?.outcome, explain(results.get(id))).toBe('fail');
  });

  it.each(controls)('control %s passes', (id) => {
    expect(results.get(id)?.outcome, explain(results.get(id))).toBe('pass');
  });
});
