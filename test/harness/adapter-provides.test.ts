// Protections an adapter provides itself (hello's `adapter_provides`, CandidateInfo.adapterProvides):
// every case testing one is the adapter's, its verdict unchanged, and every report form says so
// and counts it apart from what the broker holds.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../harness/catalogue.js';
import { referenceCandidate } from '../../harness/candidates/reference.js';
import { AdapterError, checkDeclaration, loadCandidate } from '../../harness/candidates/registry.js';
import type { Candidate } from '../../harness/candidates/types.js';
import { ADAPTER_PROTOCOL } from '../../harness/candidates/types.js';
import { brokerTable } from '../../harness/report/broker-table.js';
import { headlineMarkdown } from '../../harness/report/headline.js';
import { renderJunit } from '../../harness/report/junit.js';
import { renderMarkdown } from '../../harness/report/markdown.js';
import { renderMatrixPage } from '../../harness/report/matrix-page.js';
import { REPORT_FORMAT, summarise, type Report } from '../../harness/report/summary.js';
import { loadRequirements } from '../../harness/requirements.js';
import { caseHeader, runScenario } from '../../harness/run/execute.js';
import type { CaseResult } from '../../harness/run/outcome.js';
import { judgedCase } from './case-fixture.js';

const scenarios = new Map(loadCatalogue().map((scenario) => [scenario.id, scenario]));
const requirements = loadRequirements();

const BRIDGE = { protection: 'process-isolation', how: 'the adapter kills the bridge it started, and the server under it, when the broker exits' };

/** The reference, with an adapter that says it keeps the server's processes itself. */
function referenceWithAdapterProtection(): Candidate {
  const reference = referenceCandidate();
  return { ...reference, info: { ...reference.info, name: 'reference-with-adapter', adapterProvides: [BRIDGE] } };
}

function reportOf(cases: CaseResult[], candidate: Candidate = referenceWithAdapterProtection()): Report {
  return {
    format: REPORT_FORMAT,
    suite: { name: 'mcp-gauntlet', version: '0.1.0' },
    candidate: candidate.info,
    started_at: '2026-12-06T00:00:00.000Z',
    finished_at: '2026-12-06T00:00:01.000Z',
    filter: null,
    summary: summarise(cases),
    cases,
  };
}

const heldAttack = (id: string, requirement: string, byAdapter?: string[]): CaseResult => ({
  ...judgedCase(id, 'pass', { control: 'c.ok' }),
  requirements: [requirement],
  control_outcome: 'pass',
  ...(byAdapter === undefined ? {} : { by_adapter: byAdapter }),
});

describe('a case testing a protection the adapter provides', () => {
  it('names the declared protections the scenario tests, by claim tag or requirement id, and no others', () => {
    const candidate = referenceWithAdapterProtection();
    expect(caseHeader(scenarios.get('prc.own-group')!, candidate).by_adapter).toEqual(['process-isolation']);
    const byRequirement = { ...candidate, info: { ...candidate.info, adapterProvides: [{ protection: 'PRC-1', how: 'its own process group' }] } };
    expect(caseHeader(scenarios.get('prc.own-group')!, byRequirement).by_adapter).toEqual(['PRC-1']);
    expect(caseHeader(scenarios.get('ins.japanese-result')!, candidate)).not.toHaveProperty('by_adapter');
    expect(caseHeader(scenarios.get('prc.own-group')!, referenceCandidate())).not.toHaveProperty('by_adapter');
  });

  it('refuses a declaration naming neither a claim tag nor a requirement id', () => {
    const candidate = referenceWithAdapterProtection();
    const wrong = { ...candidate, info: { ...candidate.info, adapterProvides: [{ protection: 'kills-things', how: 'somehow' }] } };
    expect(() => checkDeclaration(wrong, 'fixture')).toThrow(AdapterError);
    expect(() => checkDeclaration(wrong, 'fixture')).toThrow(/adapter_provides names kills-things, neither a claim tag nor a requirement id/);
    expect(() => checkDeclaration(candidate, 'fixture')).not.toThrow();
  });

  it('keeps the observed verdict and reports it as the adapter\'s: a fixture adapter declaring process isolation in front of the reference', async () => {
    const result = await runScenario(scenarios.get('prc.own-group')!, referenceWithAdapterProtection(), { stepTimeoutMs: 8_000 });
    expect(result.outcome, result.reason).toBe('pass');
    expect(result.by_adapter).toEqual(['process-isolation']);
    const report = reportOf([{ ...result, control_outcome: 'pass' }]);
    expect(report.summary.attacks_held).toBe(1);
    expect(report.summary.attacks_held_by_adapter).toBe(1);
    expect(renderMarkdown(report, requirements)).toContain('| prc.own-group | attack | PRC-1 | pass, held by the adapter (process-isolation) |');
  }, 60_000);
});

describe('every report form', () => {
  const cases = [heldAttack('prc.by-adapter', 'PRC-1', ['process-isolation']), heldAttack('pin.by-broker', 'PIN-1'), judgedCase('c.ok', 'pass', { kind: 'control' })];
  const report = reportOf(cases);

  it('counts the adapter\'s holds apart in the summary', () => {
    expect(report.summary).toMatchObject({ attacks_held: 2, attacks_total: 2, attacks_held_by_adapter: 1 });
  });

  it('says so in report.md: the headline, the areas, the case and what the adapter declared', () => {
    const markdown = renderMarkdown(report, requirements);
    expect(markdown).toContain('**Attacks held: 2 of 2 (1 held by the adapter, not the broker)**');
    expect(markdown).toContain('| Processes (PRC) | 1 of 1 (1 held by the adapter, not the broker) |');
    expect(markdown).toContain('| Pinning (PIN) | 1 of 1 |');
    expect(markdown).toContain('| prc.by-adapter | attack | PRC-1 | pass, held by the adapter (process-isolation) |');
    expect(markdown).toContain('| pin.by-broker | attack | PIN-1 | pass |');
    expect(markdown).toContain(`- process-isolation: ${BRIDGE.how}`);
  });

  it('says so in the CI headline and the README table', () => {
    expect(headlineMarkdown(report, { exitCode: 0 })).toContain('**Attacks held: 2 of 2 (1 held by the adapter, not the broker)**');
    expect(brokerTable([{ folder: 'x', report }], requirements)).toContain('| 2 of 2 (1 held by the adapter, not the broker) |');
  });

  it('says so in junit.xml, on the case the adapter held only', () => {
    const junit = renderJunit(report);
    expect(junit).toMatch(/name="prc\.by-adapter"[^>]*>\s*<system-out>held by the adapter, not the broker: process-isolation<\/system-out>/);
    expect(junit).toMatch(/name="pin\.by-broker"[^>]*\/>/);
  });

  it('says so in report.html, in the verdict and the area tile', () => {
    const html = renderMatrixPage([{ report }], requirements, { title: 'fixture' });
    expect(html).toContain('Attacks held: 2 of 2 (1 held by the adapter, not the broker)');
    expect(html).toContain('1 / 1 (1 by the adapter) held');
    expect(html).toContain('the adapter provides itself, not the broker: process-isolation');
  });

  it('says nothing of an adapter where none was declared', () => {
    const plain = reportOf([heldAttack('pin.by-broker', 'PIN-1')], referenceCandidate());
    expect(renderMarkdown(plain, requirements)).not.toContain('adapter');
    expect(plain.summary.attacks_held_by_adapter).toBe(0);
  });
});

describe('a protocol adapter declaring adapter_provides', () => {
  const dirs: string[] = [];
  const opened: Candidate[] = [];
  afterEach(async () => {
    for (const candidate of opened.splice(0)) await candidate.dispose?.();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  function adapterDeclaring(provides: string): string {
    const dir = mkdtempSync(join(tmpdir(), 'gauntlet-provides-'));
    dirs.push(dir);
    const file = join(dir, 'adapter.py');
    writeFileSync(
      file,
      `import json, sys
HELLO = {"protocol": "${ADAPTER_PROTOCOL}", "name": "declaring", "version": "1", "claims": ["listing", "calls"], "hooks": [], "upstreams": ["command"], "config_flaws": False, "unapplied": [], "adapter_provides": ${provides}}
for line in sys.stdin:
    r = json.loads(line)
    print(json.dumps({"id": r["id"], "result": HELLO if r["method"] == "hello" else None}), flush=True)
`,
    );
    return file;
  }

  it('has it in its declaration', async () => {
    const candidate = await loadCandidate(adapterDeclaring(JSON.stringify([BRIDGE]).replace(/false/g, 'False')));
    opened.push(candidate);
    expect(candidate.info.adapterProvides).toEqual([BRIDGE]);
  });

  it('is refused when an entry does not say how', async () => {
    await expect(loadCandidate(adapterDeclaring('[{"protection": "process-isolation"}]'))).rejects.toThrow(/hello\.answer\.schema\.json: .*how/);
  });
});
