import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../harness/catalogue.js';
import { spawnChannel } from '../../harness/candidates/child.js';
import { ADAPTER_PROTOCOL, type Candidate, type Feature } from '../../harness/candidates/types.js';
import { referenceCandidate } from '../../harness/candidates/reference.js';
import { DEFAULT_STEP_TIMEOUT_MS, runScenario } from '../../harness/run/execute.js';

const scenarios = loadCatalogue();
const scenario = (id: string) => {
  const found = scenarios.find((s) => s.id === id);
  if (!found) throw new Error(`no scenario ${id}`);
  return found;
};

/**
 * A fake broker as a one-file script: it answers initialize and tools/list with a listing that
 * satisfies the scenario, then misbehaves in the way named by `onCall`.
 */
const FAKE_BROKER = `
const readline = require('node:readline');
const mode = process.argv[1];
const tools = [{ name: 'search_notes', inputSchema: { type: 'object' } }, { name: 'read_note', inputSchema: { type: 'object' } }];
let listings = 0;
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  const reply = (result) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result }) + '\\n');
  if (mode === 'exit-at-once') process.exit(3);
  if (m.method === 'initialize') reply({ protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'fake', version: '0' } });
  else if (m.method === 'tools/list' && mode === 'reword-on-relist' && listings++ > 0) reply({ tools: [{ ...tools[0], description: 'new words' }, tools[1]] });
  else if (m.method === 'tools/list') reply({ tools });
  else if (m.method === 'tools/call' && mode === 'reword-on-relist') reply({ content: [] });
  else if (m.method === 'tools/call' && mode === 'die-on-call') process.exit(1);
  else if (m.method === 'tools/call' && mode === 'hang-on-call') { /* never answers */ }
  else if (m.method === 'tools/call' && mode === 'leak-then-hang-on-call') process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: 'a'.repeat(70000) }] } }).slice(0, -10));
});
`;

function fakeCandidate(mode: string, features: Feature[] = ['listing', 'calls', 'classification']): Candidate {
  return {
    info: { name: `fake-${mode}`, version: '0', adapterProtocol: ADAPTER_PROTOCOL, claims: features },
    async pin() {
      return { ok: true, detail: 'fake' };
    },
    async start(spec) {
      return spawnChannel(process.execPath, ['-e', FAKE_BROKER, mode], { cwd: spec.workdir, stderrFile: join(spec.workdir, 'fake.stderr') });
    },
  };
}

const options = { stepTimeoutMs: 1_500 };

describe('a dead or hung candidate never passes', () => {
  // The fake answers the listing itself and never starts the server: the listing's checks fail
  // for that (an empty ledger never passes), and the failure stands whatever ends the run after.
  it('a broker that dies when called never passes; the check that failed before stays a failure', async () => {
    const result = await runScenario(scenario('cls.unclassified-tool-withheld'), fakeCandidate('die-on-call'), options);
    expect(result.outcome).toBe('fail');
    expect(result.findings.map((f) => f.check)).toEqual(['list.server_listed']);
    expect(result.reason).toMatch(/tools\/call write_note no answer: the channel closed \(it exited with code 1\)/);
    expect(result.stderr_tail).toBeDefined();
  });

  it('a broker that hangs on a call never passes', async () => {
    const result = await runScenario(scenario('cls.unclassified-tool-withheld'), fakeCandidate('hang-on-call'), options);
    expect(result.outcome).toBe('fail');
    expect(result.reason).toMatch(/no answer before the step timeout/);
  });

  it('a broker that hangs mid-answer is judged for what had arrived: exposed, not just an error', async () => {
    const leaking = fakeCandidate('leak-then-hang-on-call');
    const candidate = { ...leaking, info: { ...leaking.info, upstreams: ['command', 'url'] } } as Candidate;
    const result = await runScenario(scenario('net.body-announced-over-cap'), candidate, options);
    expect(result.outcome).toBe('fail');
    expect(result.failure).toBe('exposed');
    // Only the harm what arrived shows: nothing of the refusal's shape, which never came.
    expect(result.findings.map((f) => [f.check, f.class])).toEqual([
      ['call.answer_excludes', 'harm'],
      ['call.answer_max_bytes', 'harm'],
    ]);
    expect(result.reason).toMatch(/no whole answer before the step timeout \(700\d\d bytes of an unfinished one had arrived\)/);
  });

  // On a loaded machine a pin can outlast the step timeout. Taken for a refusal, it sent the start
  // on unpinned: every tool refused, an attack held and its control over-blocked by the clock.
  it('a pin the harness cut off is an error, never a refusal the start goes on from', async () => {
    // The server never answers initialize and the broker would wait a minute for it, so only the
    // step timeout ends the pin, whatever the machine's speed.
    const silent = scenario('tim.silent-handshake');
    const patient = { ...silent, operator: { ...silent.operator, limits: { connect_timeout_ms: 60_000 } } };
    const result = await runScenario(patient, referenceCandidate(), options);
    expect(result).toMatchObject({ outcome: 'error', findings: [], reason: `1:pin: the candidate's pin did not finish within ${options.stepTimeoutMs} ms` });
    expect(result.transcript.agent).toEqual([]);
  });

  // The reference broker's deadlines are 10 s by default; it starts counting only once it runs, so
  // a step timeout no longer than them always ran out first and made an error of the refusal.
  it("a refusal at the broker's own default deadline is seen, not raced by the step timeout", async () => {
    const silent = scenario('tim.silent-handshake');
    const atDefaults = {
      ...silent,
      operator: { ...silent.operator, limits: {} },
      steps: [{ pin: {} }, { start: { expect: { outcome: 'refused' as const, after: 'initialize' as const, servers_alive: 0 } } }],
    };
    const result = await runScenario(atDefaults, referenceCandidate(), { stepTimeoutMs: DEFAULT_STEP_TIMEOUT_MS });
    expect(result, JSON.stringify(result.reason)).toMatchObject({ outcome: 'pass', findings: [] });
    expect(result.notes.join('\n')).toMatch(/refused: .*initialize/);
  }, 60_000);

  it('a broker that exits before listing the server does not earn a refusal', async () => {
    const result = await runScenario(scenario('cls.nothing-registered-fails-closed'), fakeCandidate('exit-at-once'), options);
    expect(result.outcome).toBe('fail');
    expect(result.findings.map((f) => f.observed)).toContain('the server never received tools/list');
  });

  it('a listing that changes within the session fails an unchanged listing', async () => {
    const result = await runScenario(scenario('drf.notice-keeps-listing'), fakeCandidate('reword-on-relist', ['pinning', 'drift']), options);
    expect(result.outcome).toBe('fail');
    expect(result.findings).toContainEqual(expect.objectContaining({ step: '6:list', check: 'list.unchanged', class: 'harm', expectation: 'search_notes unchanged' }));
    expect(result.findings.filter((f) => f.step === '6:list' && f.check === 'list.unchanged')).toHaveLength(1);
    expect(result.failure).toBe('exposed');
  });

  it('a broker that refuses every start does not earn a configuration refusal', async () => {
    const candidate = { ...fakeCandidate('exit-at-once', ['config-checks']), info: { ...fakeCandidate('x').info, configFlaws: true } };
    const result = await runScenario(scenario('cfg.unknown-effect'), candidate, options);
    // The flawed start looks refused; the ready start with the same files shows the broker is dead.
    expect(result.outcome).toBe('fail');
    expect(result.findings.map((f) => f.check)).toContain('start.ready');
    expect(result.reason).toMatch(/no session to use/);
  });

  it('a candidate that does not claim a protection is still judged on it', async () => {
    const result = await runScenario(scenario('pin.float-drift'), fakeCandidate('reword-on-relist', ['listing', 'calls']), options);
    expect(result.claimed).toBe(false);
    expect(['pass', 'fail']).toContain(result.outcome);
  });

  it('a candidate without a hook the steps need is unsupported, never run', async () => {
    const result = await runScenario(scenario('pol.approved-call-runs-once'), fakeCandidate('die-on-call', ['listing', 'calls']), options);
    expect(result).toMatchObject({ outcome: 'unsupported' });
    expect(result.reason).toMatch(/approve/);
  });

  it('a case of a revision the candidate does not declare is unsupported, naming the revision, never run', async () => {
    const candidate = fakeCandidate('die-on-call');
    const result = await runScenario(scenario('cls.classified-tool-offered.2026-07-28'), candidate, options);
    expect(result).toMatchObject({ outcome: 'unsupported', reason: "the case speaks MCP 2026-07-28, and the candidate's adapter declares it serves 2025-11-25" });
    const declared = { ...candidate, info: { ...candidate.info, revisions: ['2026-07-28'] as const } };
    expect((await runScenario(scenario('cls.classified-tool-offered'), declared, options)).reason).toBe("the case speaks MCP 2025-11-25, and the candidate's adapter declares it serves 2026-07-28");
  });
});

describe('a configuration refusal counts only when the candidate stops and says why', () => {
  const refusing = scenario('eff.expression-check-refused');
  const features: Feature[] = ['listing', 'calls', 'effect-contracts'];
  /** A candidate whose broker exits at once with code 3; `reason` is what its adapter reports of that exit. */
  const exiting = (reason: string | undefined): Candidate => ({
    ...fakeCandidate('exit-at-once', features),
    async startRefusal(_spec, exit) {
      return exit.code === 3 ? reason : undefined;
    },
  });

  it('a broker that dies with no refusal reported fails', async () => {
    const result = await runScenario(refusing, fakeCandidate('exit-at-once', features), options);
    expect(result.outcome).toBe('fail');
    expect(result.findings.map((f) => f.expectation)).toContain('refusal explained');
  });

  it('a broker that serves fails', async () => {
    const result = await runScenario(refusing, fakeCandidate('die-on-call', features), options);
    expect(result.outcome).toBe('fail');
    expect(result.findings.map((f) => f.observed)).toContain('it answered the opening request and serves');
  });

  it('a refusal whose reason does not name the rule fails; one that does passes', async () => {
    const vague = await runScenario(refusing, exiting('bad configuration'), options);
    expect(vague.outcome).toBe('fail');
    expect(vague.findings.map((f) => f.expectation)).toEqual(['refusal names "write_note"', 'refusal names "contract"']);
    const named = await runScenario(refusing, exiting('rules.write_note.contract.checks[0] is an expression'), options);
    expect(named.outcome).toBe('pass');
  });
});

