import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../harness/catalogue.js';
import { referenceCandidate } from '../../harness/candidates/reference.js';
import type { AgentChannel, Candidate } from '../../harness/candidates/types.js';
import { plannedChecks } from '../../harness/expect/plan.js';
import { runSuite } from '../../harness/run/suite.js';
import type { Report } from '../../harness/report/summary.js';
import type { Scenario } from '../../harness/scenario/types.js';

const catalogue = loadCatalogue();
const byId = (id: string): Scenario => {
  const found = catalogue.find((s) => s.id === id);
  if (found === undefined) throw new Error(`no scenario ${id}`);
  return found;
};
/** A committed scenario changed past what the loader admits, as a scenario from elsewhere could be. */
const variant = (id: string, suffix: string, server: Partial<Scenario['server']>): Scenario => {
  const scenario = byId(id);
  return { ...scenario, id: `${id}#${suffix}`, server: { ...scenario.server, ...server } };
};

type Fault = 'loadReport' | 'audit' | 'close';

/**
 * The reference broker behind an adapter one of whose own calls throws: its load report, its
 * audit trail, or the close of every channel it opens. The broker itself is sound, so whatever
 * goes wrong is the adapter's doing.
 */
function throwingAdapter(fault: Fault): Candidate {
  const reference = referenceCandidate();
  const explode = async (): Promise<never> => {
    throw new Error(`adapter ${fault} exploded`);
  };
  const closeThrows = (channel: AgentChannel): AgentChannel =>
    Object.assign(Object.create(channel) as AgentChannel, { close: () => channel.close().then(explode) });
  return {
    ...reference,
    info: reference.info,
    pin: (spec) => reference.pin(spec),
    start: async (spec) => (fault === 'close' ? closeThrows(await reference.start(spec)) : reference.start(spec)),
    ...(fault === 'loadReport' ? { loadReport: explode } : {}),
    ...(fault === 'audit' ? { audit: explode } : {}),
  };
}

/** The shortest one-server scenario with a check that only the hook can take. */
const needing = (hook: 'load-report' | 'audit'): Scenario => {
  const takers = catalogue.filter((s) => s.servers === undefined && s.agent === undefined && plannedChecks(s).some((planned) => planned.hook === hook));
  const found = takers.sort((a, b) => a.steps.length - b.steps.length)[0];
  if (found === undefined) throw new Error(`no scenario needs ${hook}`);
  return found;
};

const options = { stepTimeoutMs: 5_000 };
const outcomes = (report: Report) => report.cases.map((c) => ({ id: c.id, outcome: c.outcome, reason: c.reason ?? '' }));

describe('a scenario that cannot be set up, or whose adapter throws, is that scenario’s error and the run goes on', () => {
  it('an HTTP server refusing its knobs, or an address no enclosure holds, is named; the next scenario is judged', async () => {
    const plain = byId('crd.http-server-reached');
    const report = await runSuite(referenceCandidate(), [variant(plain.id, 'unknown-knob', { knobs: { no_such_knob: 1 } }), variant(plain.id, 'bad-address', { listen: '999.0.0.5' }), plain], options);
    expect(outcomes(report)).toEqual([
      { id: `${plain.id}#unknown-knob`, outcome: 'error', reason: expect.stringMatching(/^the scenario could not be set up: the HTTP server exited .* before it listened/) },
      { id: `${plain.id}#bad-address`, outcome: 'error', reason: expect.stringMatching(/^the scenario could not be set up: .*999\.0\.0\.5/) },
      { id: plain.id, outcome: 'pass', reason: '' },
    ]);
  }, 30_000);

  it.each([
    ['loadReport', needing('load-report')],
    ['audit', needing('audit')],
    ['close', byId('crd.env-literal-delivered')],
  ] as const)('an adapter whose %s throws errs that scenario, named with the cause, and the run goes on', async (fault, scenario) => {
    const next = byId('crd.env-literal-delivered');
    const report = await runSuite(throwingAdapter(fault), fault === 'close' ? [scenario] : [scenario, next], options);
    const [first, ...rest] = outcomes(report);
    expect(first).toEqual({ id: scenario.id, outcome: 'error', reason: expect.stringMatching(new RegExp(`^harness or adapter error: Error: adapter ${fault} exploded`)) });
    // The scenario after it runs through the same adapter, and is judged on its own.
    expect(rest).toEqual(fault === 'close' ? [] : [{ id: next.id, outcome: 'pass', reason: '' }]);
  }, 30_000);
});
