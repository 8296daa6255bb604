import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installedBroker, writtenFor } from '../../harness/candidates/brokers/installed.js';
import { packageRoot } from '../../harness/paths.js';
import { loadCatalogue } from '../../harness/catalogue.js';
import { loadCandidate } from '../../harness/candidates/registry.js';
import { DEFAULT_STEP_TIMEOUT_MS, runScenario } from '../../harness/run/execute.js';
import { scratchFolders } from './scratch.js';

/**
 * The third-party brokers installed as dev dependencies really run under their adapters: each is
 * started by its own CLI, reached as deployed (mcp-remote over stdio, Civic's passthrough over
 * Streamable HTTP, mcp-hub over HTTP+SSE), and relays a control's listing and call, which a plain
 * relay passes. An error here is the adapter's or the harness's, never a verdict about the broker.
 */
const CONTROL = 'net.loopback-opted-in';

describe('the third-party broker adapters', () => {
  const [control] = loadCatalogue(CONTROL);

  for (const name of ['mcp-remote', 'civic-passthrough', 'mcp-hub']) {
    it(`${name} relays ${CONTROL}`, async () => {
      const candidate = await loadCandidate(name);
      const result = await runScenario(control!, candidate, { stepTimeoutMs: DEFAULT_STEP_TIMEOUT_MS });
      expect(result.outcome, `${result.reason ?? ''} ${JSON.stringify(result.findings)}`).toBe('pass');
    }, 30_000);
  }
});

describe('the URL-only brokers in front of a command server', () => {
  // A filter selects an attack with its control; each is picked by its id.
  const selected = loadCatalogue('cls.*');
  const control = selected.find((scenario) => scenario.id === 'cls.classified-tool-offered');
  const attack = selected.find((scenario) => scenario.id === 'cls.unclassified-tool-withheld');

  for (const name of ['mcp-remote', 'civic-passthrough']) {
    it(`${name} relays ${control!.id} through the adapter's bridge, and says the bridge is the adapter's`, async () => {
      const candidate = await loadCandidate(name);
      expect(candidate.info.upstreams).toContain('command');
      expect(candidate.info.adapterProvides?.map((entry) => entry.protection)).toEqual(expect.arrayContaining(['process-isolation', 'server-env']));
      const result = await runScenario(control!, candidate, { stepTimeoutMs: DEFAULT_STEP_TIMEOUT_MS });
      expect(result.outcome, `${result.reason ?? ''} ${JSON.stringify(result.findings)}`).toBe('pass');
    }, 60_000);
  }

  it("mcp-remote hides the tool the operator did not allow, by its own --ignore-tool, to the broker's credit", async () => {
    const result = await runScenario(attack!, await loadCandidate('mcp-remote'), { stepTimeoutMs: DEFAULT_STEP_TIMEOUT_MS });
    expect(result.outcome, `${result.reason ?? ''} ${JSON.stringify(result.findings)}`).toBe('pass');
    expect(result.by_adapter).toBeUndefined();
    expect(result.notes.join('\n')).toMatch(/the adapter listed \d+ tool\(s\) through it and hides 1 the operator did not allow with --ignore-tool/);
  }, 60_000);
});

describe('the bridges judged at their own front door', () => {
  const selected = loadCatalogue('fdr.*');
  const scenario = (id: string) => selected.find((entry) => entry.id === id)!;

  it("mcp-proxy requires its API key of every client when the operator asks for a front-door credential, to the broker's credit, and serves the clients that hold it", async () => {
    const candidate = await loadCandidate('mcp-proxy');
    expect(candidate.info.agentTransports).toContain('http');
    for (const id of ['fdr.uncredentialed-call-refused', 'fdr.credentialed-clients-served']) {
      const result = await runScenario(scenario(id), candidate, { stepTimeoutMs: DEFAULT_STEP_TIMEOUT_MS });
      expect(result.outcome, `${id}: ${result.reason ?? ''} ${JSON.stringify(result.findings)}`).toBe('pass');
      expect(result.by_adapter).toBeUndefined();
    }
  }, 60_000);

  it('supergateway, which has no credential to require, serves a client without one: exposed', async () => {
    const result = await runScenario(scenario('fdr.uncredentialed-call-refused'), await loadCandidate('supergateway'), { stepTimeoutMs: DEFAULT_STEP_TIMEOUT_MS });
    expect(result.failure).toBe('exposed');
  }, 60_000);
});

describe('a real broker that declares MCP 2026-07-28', () => {
  it("supergateway carries a 2026-07-28 agent's stateless requests to a 2026-07-28 server: its control passes", async () => {
    const [control] = loadCatalogue('agt.allowed-tool-usable.2026-07-28');
    expect(control?.revision).toBe('2026-07-28');
    const result = await runScenario(control!, await loadCandidate('supergateway'), { stepTimeoutMs: DEFAULT_STEP_TIMEOUT_MS });
    expect(result.outcome, `${result.reason ?? ''} ${JSON.stringify(result.findings)}`).toBe('pass');
  }, 60_000);
});

describe('finding an installed broker', () => {
  const folder = scratchFolders('gauntlet-broker-install');

  /** A project with its own copy of a package: a manifest naming a bin, and the bin. */
  function projectWith(name: string, version: string): string {
    const project = folder();
    const dir = join(project, 'node_modules', name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version, bin: { [name]: 'cli.js' } }));
    writeFileSync(join(dir, 'cli.js'), '');
    return project;
  }

  it('takes the copy in the project it runs from before the suite\'s own', () => {
    const project = projectWith('mcp-proxy', '9.9.9');
    // From a folder below the project, as Node's own resolution walks up.
    const below = join(project, 'packages', 'broker');
    mkdirSync(below, { recursive: true });
    expect(installedBroker('mcp-proxy', 'mcp-proxy', below)).toEqual({ version: '9.9.9', bin: realpathSync(join(project, 'node_modules', 'mcp-proxy', 'cli.js')) });
  });

  it('falls back to the suite\'s own when the project has none', () => {
    const broker = installedBroker('mcp-proxy', 'mcp-proxy', folder());
    expect(broker.version).toBe(writtenFor('mcp-proxy'));
    expect(broker.bin.startsWith(realpathSync(join(packageRoot, 'node_modules')))).toBe(true);
  });

  it('refuses a package that has no such bin, naming it', () => {
    const project = projectWith('mcp-proxy', '1.0.0');
    expect(() => installedBroker('mcp-proxy', 'other-bin', project)).toThrow(/mcp-proxy 1\.0\.0 .* has no bin entry other-bin/);
  });
});
