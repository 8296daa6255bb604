import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCandidate } from '../../harness/candidates/registry.js';
import { loadCatalogue } from '../../harness/catalogue.js';
import { packageRoot } from '../../harness/paths.js';
import { DEFAULT_STEP_TIMEOUT_MS } from '../../harness/run/execute.js';
import type { CaseResult } from '../../harness/run/outcome.js';
import { runSuite } from '../../harness/run/suite.js';
import type { Scenario } from '../../harness/scenario/types.js';

/**
 * The families whose first attack (and its control) go through every path of the adapter
 * protocol the passthrough uses: a server started by command and one dialled by URL with
 * credentials, the operator's server environment, configuration flaws, the audit and approve
 * hooks, and the broker's death. The whole catalogue is compared by a full run of each
 * (`gauntlet run --candidate adapters/python/passthrough_adapter.py`); twelve cases here keep the
 * normal test run short.
 */
const FAMILIES = ['cfg', 'crd', 'env', 'aud', 'pol', 'prc'];

function subset(): Scenario[] {
  const all = loadCatalogue();
  const byId = new Map(all.map((scenario) => [scenario.id, scenario]));
  return FAMILIES.flatMap((family) => {
    const attack = all.find((scenario) => scenario.id.startsWith(`${family}.`) && scenario.kind === 'attack' && scenario.control !== undefined)!;
    return [attack, byId.get(attack.control!)!];
  });
}

/** What a verdict is, case by case: the outcome, its failure class, and the checks that found something. */
const verdicts = (cases: readonly CaseResult[]) =>
  cases.map((c) => ({ id: c.id, outcome: c.outcome, failure: c.failure ?? null, checks: c.findings.map((finding) => finding.check).sort() }));

async function judged(name: string, scenarios: Scenario[]) {
  const candidate = await loadCandidate(name);
  try {
    return verdicts((await runSuite(candidate, scenarios, { stepTimeoutMs: DEFAULT_STEP_TIMEOUT_MS })).cases);
  } finally {
    await candidate.dispose?.();
  }
}

describe('the Python passthrough adapter over gauntlet-candidate/2', () => {
  it('gets the verdicts of the built-in passthrough, case by case', async () => {
    const scenarios = subset();
    expect(scenarios).toHaveLength(FAMILIES.length * 2);
    const python = await judged(join(packageRoot, 'adapters', 'python', 'passthrough_adapter.py'), scenarios);
    const builtIn = await judged('passthrough', scenarios);
    expect(python).toEqual(builtIn);
    // The baseline's own contract, so the equality is not two empty runs agreeing.
    for (const verdict of builtIn) expect(verdict.outcome).toBe(scenarios.find((s) => s.id === verdict.id)!.kind === 'attack' ? 'fail' : 'pass');
  }, 150_000);

  it('got the verdicts of the built-in passthrough on the whole catalogue, in the committed reports', () => {
    const committed = (folder: string) => JSON.parse(readFileSync(join(packageRoot, 'reports', 'brokers', folder, 'report.json'), 'utf8')) as { cases: CaseResult[] };
    // Outcome and failure class, case by case: which checks found an exposed endless stream
    // (net.sse-endless-stream) depends on how much of it each run forwarded before its bound,
    // so the checks are compared on the twelve cases above, run side by side.
    const outcomes = (cases: readonly CaseResult[]) => verdicts(cases).map(({ id, outcome, failure }) => ({ id, outcome, failure }));
    const python = outcomes(committed('passthrough-python').cases);
    expect(python).toEqual(outcomes(committed('passthrough').cases));
    // Made on the whole catalogue, both revisions' cases.
    expect(python.map((verdict) => verdict.id).sort()).toEqual(loadCatalogue().map((scenario) => scenario.id).sort());
  });
});
