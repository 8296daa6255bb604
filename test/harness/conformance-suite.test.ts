// The official MCP conformance suite (@modelcontextprotocol/conformance, pinned) as a transparency
// suite (harness/transparency/conformance.ts): its Node 20 shim, the reading of its checks, and
// the suite run for real against the conformance server direct, through the reference broker's
// front door (every check that passes direct but the protection check must pass through it, the
// operator passing non-text content), through passthrough's (the same), and through supergateway's,
// a real broker given the conformance server over stdio (the same). Each run of the suite takes 5 to 20 s here; the whole file
// about a minute on a loaded machine, each suite run bounded by SUITE_TIMEOUT_MS.

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passthroughCandidate } from '../../harness/candidates/passthrough.js';
import type { Candidate } from '../../harness/candidates/types.js';
import { referenceCandidate } from '../../harness/candidates/reference.js';
import { loadCandidate } from '../../harness/candidates/registry.js';
import { startConformanceServer } from '../../harness/transparency/conformance-server.js';
import { conformanceFindings, conformanceTransparency, runConformanceSuite, type ConformanceCheck } from '../../harness/transparency/conformance.js';
import type { TransparencyResult } from '../../harness/transparency/types.js';
// @ts-expect-error: a plain ES module of the repository, with no declarations.
import { globSync } from '../../harness/transparency/node20-fs-facade.mjs';
import { packageRoot } from '../../harness/paths.js';

const SUITE_TIMEOUT_MS = 120_000;
const SHIM = join(packageRoot, 'harness', 'transparency', 'node20-glob-shim.mjs');
const SUITE = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js');
const nodeMajor = Number(process.versions.node.split('.')[0]);

describe('the Node 20 shim', () => {
  it("gives fs.globSync's answer: the matching paths relative to cwd", () => {
    const root = mkdtempSync(join(tmpdir(), 'gauntlet-glob-'));
    try {
      for (const dir of ['a', 'b/c', 'd']) mkdirSync(join(root, dir), { recursive: true });
      writeFileSync(join(root, 'a', 'checks.json'), '[]');
      writeFileSync(join(root, 'b', 'c', 'checks.json'), '[]');
      writeFileSync(join(root, 'd', 'other.json'), '[]');
      expect((globSync('**/checks.json', { cwd: root }) as string[]).sort()).toEqual(['a/checks.json', 'b/c/checks.json']);
      expect(globSync('**/checks.json', { cwd: root, exclude: ['b/**'] })).toEqual(['a/checks.json']);
      expect(() => globSync('*', { cwd: root, exclude: () => true })).toThrow('an exclude function is not supported');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('lets the suite start on this Node, which it cannot on Node 20 without it', () => {
    const listed = execFileSync(process.execPath, ['--import', SHIM, SUITE, 'list'], { encoding: 'utf8', timeout: 30_000 });
    expect(listed).toContain('server-initialize');
    if (nodeMajor < 22) {
      expect(() => execFileSync(process.execPath, [SUITE, 'list'], { encoding: 'utf8', timeout: 30_000, stdio: 'pipe' })).toThrow(/globSync/);
    }
  });
});

describe('findings from checks', () => {
  const check = (id: string, status: string, more: Partial<ConformanceCheck> = {}): ConformanceCheck => ({ scenario: 's', id, description: `check ${id}`, status, ...more });

  it('preserved both ways, broken when failed, warned or missing through the candidate, not-applicable when not passing direct, and INFO entries no check', () => {
    const direct = [check('a', 'SUCCESS'), check('b', 'SUCCESS'), check('c', 'SUCCESS'), check('d', 'SUCCESS'), check('e', 'FAILURE', { errorMessage: 'no' }), check('log', 'INFO')];
    const through = [check('a', 'SUCCESS'), check('b', 'FAILURE', { errorMessage: 'HTTP 400' }), check('c', 'WARNING'), check('e', 'SUCCESS')];
    expect(conformanceFindings(direct, through).map(({ id, verdict }) => [id, verdict])).toEqual([
      ['s/a', 'preserved'],
      ['s/b', 'broken'],
      ['s/c', 'broken'],
      ['s/d', 'broken'],
      ['s/e', 'not-applicable'],
    ]);
    expect(conformanceFindings(direct, through)[1]).toEqual({ suite: 'conformance', id: 's/b', title: 'check b', verdict: 'broken', detail: 'passes direct; through the candidate: FAILURE: HTTP 400' });
  });

  it('a check the suite replaces by an INFO through the candidate (an optional behaviour not used) is changed, citing what the suite cites', () => {
    const [finding] = conformanceFindings([check('x', 'SUCCESS')], [check('x', 'INFO', { description: 'JSON answers (SSE optional)', specReferences: ['SEP-1699'] })]);
    expect(finding).toMatchObject({ verdict: 'changed', requirement: 'SEP-1699' });
  });

  it("is no case for a protection check (a rebound Host refused), whatever it says, and names the scenarios that judge it; the benign localhost Host accepted stays one", () => {
    const rebinding = (id: string, status: string): ConformanceCheck => ({ scenario: 'dns-rebinding-protection', id, description: id, status });
    const direct = [rebinding('localhost-host-rebinding-rejected', 'SUCCESS'), rebinding('localhost-host-valid-accepted', 'SUCCESS')];
    const through = [rebinding('localhost-host-rebinding-rejected', 'FAILURE'), rebinding('localhost-host-valid-accepted', 'FAILURE')];
    const [protection, benign] = conformanceFindings(direct, through);
    expect(protection).toMatchObject({ id: 'dns-rebinding-protection/localhost-host-rebinding-rejected', verdict: 'not-applicable' });
    expect(protection!.detail).toMatch(/protection check.*fdr\.foreign-host-refused.*fdr\.hostile-origin-refused/);
    expect(benign).toMatchObject({ id: 'dns-rebinding-protection/localhost-host-valid-accepted', verdict: 'broken' });
    expect(conformanceFindings(direct, direct).map(({ verdict }) => verdict)).toEqual(['not-applicable', 'preserved']);
    // Not counted, and still said: what it found direct and through the candidate.
    expect(protection!.detail).toMatch(/\(direct: SUCCESS; through the candidate: FAILURE\)$/);
  });

  it('numbers a check id repeated in one scenario', () => {
    const twice = [check('r', 'SUCCESS'), check('r', 'SUCCESS')];
    expect(conformanceFindings(twice, [check('r', 'SUCCESS')]).map(({ id, verdict }) => [id, verdict])).toEqual([
      ['s/r', 'preserved'],
      ['s/r#2', 'broken'],
    ]);
  });
});

describe('the suite run for real', () => {
  let direct: ConformanceCheck[] = [];
  let directMs = 0;

  beforeAll(async () => {
    const server = await startConformanceServer();
    try {
      const began = performance.now();
      direct = await runConformanceSuite(server.url, SUITE_TIMEOUT_MS);
      directMs = performance.now() - began;
    } finally {
      await server.close();
    }
  }, SUITE_TIMEOUT_MS + 10_000);

  const summary = (findings: readonly TransparencyResult[]) => Object.fromEntries(['preserved', 'changed', 'broken', 'not-applicable'].map((verdict) => [verdict, findings.filter((finding) => finding.verdict === verdict).map((finding) => finding.id)]));

  it('passes every check of its active server scenarios against the conformance server direct', () => {
    const judged = direct.filter((entry) => entry.status !== 'INFO');
    expect(judged.length).toBeGreaterThanOrEqual(40);
    expect(judged.filter((entry) => entry.status !== 'SUCCESS')).toEqual([]);
    console.log(`conformance direct: ${judged.length} checks, all passing, ${Math.round(directMs)} ms`);
  });

  // The suite's protection check (a rebound Host refused) is no transparency case: it is counted in
  // neither score, whatever the candidate does, and every other check is one.
  const PROTECTION = ['dns-rebinding-protection/localhost-host-rebinding-rejected'];

  /** Every check that passes direct, but the protection check, must be preserved through `candidate`. */
  const preservesEveryCase = async (name: string, candidate: Candidate) => {
    const outcome = await conformanceTransparency(candidate, { direct, suiteTimeoutMs: SUITE_TIMEOUT_MS });
    const verdicts = summary(outcome.findings);
    console.log(`conformance through ${name}: ${verdicts.preserved!.length} preserved, ${verdicts.changed!.length} changed, ${verdicts.broken!.length} broken, ${verdicts['not-applicable']!.length} not-applicable, ${outcome.durations.candidateMs} ms`);
    expect(outcome.findings.length).toBe(direct.filter((entry) => entry.status !== 'INFO').length);
    expect(verdicts['not-applicable']).toEqual(PROTECTION);
    expect(verdicts.preserved).toEqual(outcome.findings.map((finding) => finding.id).filter((id) => !PROTECTION.includes(id)));
  };

  it('through the reference front door, with non-text content passed, every check that passes direct passes', async () => {
    await preservesEveryCase('reference', referenceCandidate());
  }, 2 * SUITE_TIMEOUT_MS);

  // Its naive front door answers a POST that accepts an event stream with one, carrying the call's
  // progress before its answer, as the SDK's server does: so the progress check and the SSE
  // streams check hold through it too, while it refuses nothing (the protection check fails).
  it('through passthrough, which has a front door: every check that passes direct passes', async () => {
    await preservesEveryCase('passthrough', passthroughCandidate());
  }, 2 * SUITE_TIMEOUT_MS);

  // supergateway starts its server from a command only: it is given the conformance server over
  // stdio (conformance-stdio.ts), whose handlers are the HTTP server's, and relays them unchanged.
  it('through supergateway, a real broker that starts its server from a command: the server over stdio, every check that passes direct passes', async () => {
    const supergateway = await loadCandidate('supergateway');
    expect(supergateway.info.upstreams ?? ['command']).not.toContain('url');
    try {
      await preservesEveryCase('supergateway', supergateway);
    } finally {
      await supergateway.dispose?.();
    }
  }, 2 * SUITE_TIMEOUT_MS);
});
