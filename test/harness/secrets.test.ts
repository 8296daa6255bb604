import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../harness/catalogue.js';
import { passthroughCandidate } from '../../harness/candidates/passthrough.js';
import { referenceCandidate } from '../../harness/candidates/reference.js';
import type { Candidate } from '../../harness/candidates/types.js';
import secretsWithheld from '../../harness/expect/scenario/secrets.js';
import type { Fail, Finding, ScenarioFacts } from '../../harness/expect/types.js';
import { operatorSecrets, SecretWatch } from '../../harness/observe/secrets.js';
import { DEFAULT_STEP_TIMEOUT_MS, OPERATOR_ENV, runScenario } from '../../harness/run/execute.js';

const TOKEN = OPERATOR_ENV.GAUNTLET_OPERATOR_TOKEN;

describe('operatorSecrets', () => {
  it("takes the hosts' credentials, the configuration's token and the credentials lent in a server's environment, named as such and written literally", () => {
    const secrets = operatorSecrets({
      tools: {},
      credentials: { 'mcp.example.test': 'mcp-token-9b2e4f70c3a1d658' },
      config_token: 'config-token-2a7d9e4b61f0c853',
      env: { NOTES_API_TOKEN: 'notes-token-7f3a9c2e41b8d605', NOTES_DIR: '/srv/notes/of-the-operator', OTHER_TOKEN: '${GAUNTLET_OPERATOR_TOKEN}' },
      servers: { beta: { tools: {}, env: { BETA_API_KEY: 'beta-key-0c5e1d7a93f4b826', SHORT_TOKEN: 'abc' } } },
    });
    expect(secrets).toEqual(['mcp-token-9b2e4f70c3a1d658', 'config-token-2a7d9e4b61f0c853', 'notes-token-7f3a9c2e41b8d605', 'beta-key-0c5e1d7a93f4b826']);
  });
});

describe('SecretWatch', () => {
  it('finds a secret raw or JSON-escaped in any line, once, at the step it arrived in', () => {
    const watch = new SecretWatch([TOKEN, 'mcp-token-9b2e4f70c3a1d658']);
    watch.see('{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"fine"}]}}', '3:call');
    const escaped = JSON.stringify({ jsonrpc: '2.0', id: 3, error: { code: -32000, message: `refused: ${TOKEN}` } }).replace('operator-', 'operator\\u002d');
    watch.see(escaped, '4:call');
    watch.see(`{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"${TOKEN}"}}`, '5:call');
    expect(watch.sightings).toEqual([{ secret: TOKEN, step: '4:call', holder: `refused: ${TOKEN}` }]);
  });

  it('names where a text outside the agent\'s channel held it', () => {
    const watch = new SecretWatch([TOKEN]);
    watch.see(`load failed; env ${TOKEN}`, '2:start', "the broker's reason for refusing to start");
    expect(watch.sightings).toEqual([{ secret: TOKEN, step: '2:start', holder: `the broker's reason for refusing to start: load failed; env ${TOKEN}` }]);
  });
});

describe('secrets.withheld', () => {
  it('fails as harm for each secret that reached the agent, at the step it did', () => {
    const findings: Finding[] = [];
    const fail: Fail = (check, expectation, expected, observed, step = 'end') => findings.push({ check, class: secretsWithheld.checks[check]!.class, step, expectation, expected, observed });
    const facts = { label: 'end', calls: [], canary: { requests: 0, records: [] }, secrets: [{ secret: TOKEN, step: '4:call', holder: `refused: ${TOKEN}` }] } as ScenarioFacts;
    secretsWithheld.judge({}, facts, { records: [], kind: 'control', spec: {} as never }, fail);
    expect(findings.map((f) => [f.check, f.class, f.step, f.observed])).toEqual([['secrets.withheld', 'harm', '4:call', `present: refused: ${TOKEN}`]]);
    findings.length = 0;
    secretsWithheld.judge({}, { ...facts, secrets: [] }, { records: [], kind: 'control', spec: {} as never }, fail);
    expect(findings).toEqual([]);
  });
});

describe('the operator\'s secrets in what the agent receives, in every scenario', () => {
  const scenarios = new Map(loadCatalogue().map((scenario) => [scenario.id, scenario]));

  it('exposes passthrough on a token the server quotes, by the generic check too', async () => {
    const result = await runScenario(scenarios.get('env.server-token-kept-from-agent')!, passthroughCandidate(), { stepTimeoutMs: DEFAULT_STEP_TIMEOUT_MS });
    expect(result.outcome).toBe('fail');
    expect(result.findings.filter((finding) => finding.check === 'secrets.withheld').map((finding) => finding.step)).toEqual(['3:call']);
  }, 60_000);

  it("finds the operator's own token the server quoted, in a scenario whose own checks say nothing of it", async () => {
    // The server quotes the broker's own environment variable: passthrough lets the operator's token through.
    const scenario = scenarios.get('env.server-token-kept-from-agent')!;
    const leaky = { ...scenario, server: { ...scenario.server, knobs: { 'echo_env.search_notes': 'GAUNTLET_OPERATOR_TOKEN' } }, operator: { ...scenario.operator, env: { GAUNTLET_OPERATOR_TOKEN: '${GAUNTLET_OPERATOR_TOKEN}' } } };
    const result = await runScenario(leaky, passthroughCandidate(), { stepTimeoutMs: DEFAULT_STEP_TIMEOUT_MS });
    expect(result.findings.find((finding) => finding.check === 'secrets.withheld')?.expectation).toBe(`agent never receives the operator's secret "${TOKEN}"`);
  }, 60_000);
});

describe("the operator's secrets in the broker's reason for refusing to start", () => {
  const scenario = loadCatalogue().find((candidate) => candidate.id === 'cfg.misspelled-rule')!;

  /** The reference, with an adapter that hands on a refusal quoting the broker's environment, as a broker dumping its settings on a failed load does. */
  function quotingEnvironment(): Candidate {
    const reference = referenceCandidate();
    return {
      ...reference,
      info: { ...reference.info, name: 'reference-quoting-its-environment' },
      async startRefusal(spec, exit) {
        const reason = await reference.startRefusal!(spec, exit);
        return reason === undefined ? undefined : `${reason} (environment: GAUNTLET_OPERATOR_TOKEN=${spec.env.GAUNTLET_OPERATOR_TOKEN})`;
      },
    };
  }

  it('is harm, at the start that refused, naming the reason as where it was', async () => {
    const result = await runScenario(scenario, quotingEnvironment(), { stepTimeoutMs: DEFAULT_STEP_TIMEOUT_MS });
    expect(result.outcome).toBe('fail');
    expect(result.failure).toBe('exposed');
    const finding = result.findings.find((candidate) => candidate.check === 'secrets.withheld');
    expect(finding?.step).toBe('2:start');
    expect(String(finding?.observed)).toMatch(new RegExp(`^present: the broker's reason for refusing to start: .*GAUNTLET_OPERATOR_TOKEN=${TOKEN}\\)$`));
  }, 60_000);

  it('is nothing for a reason that quotes no secret: the reference holds the same scenario', async () => {
    const result = await runScenario(scenario, referenceCandidate(), { stepTimeoutMs: DEFAULT_STEP_TIMEOUT_MS });
    expect(result.outcome, JSON.stringify(result.findings)).toBe('pass');
    expect(result.notes.some((note) => note.startsWith('2:start: refused: '))).toBe(true);
  }, 60_000);
});
