import { describe, expect, it } from 'vitest';
import { dropperCandidate } from '../../harness/candidates/dropper.js';
import { passthroughCandidate } from '../../harness/candidates/passthrough.js';
import { referenceCandidate } from '../../harness/candidates/reference.js';
import { ADAPTER_PROTOCOL, type Candidate } from '../../harness/candidates/types.js';
import { runTransparency } from '../../harness/transparency/registry.js';
import { SESSIONS } from '../../harness/transparency/sessions/index.js';
import type { TransparencyResult } from '../../harness/transparency/types.js';

/**
 * The official-servers suite end to end: the four official servers' benign sessions direct and
 * through a candidate, in the same run. Each run costs about a minute on the 2-core machine.
 */
const OPTIONS = { stepTimeoutMs: 20_000 };

const ids = (results: readonly TransparencyResult[], verdict: TransparencyResult['verdict']) =>
  results
    .filter((result) => result.verdict === verdict)
    .map((result) => result.id)
    .sort();

/** Operations that fail direct whatever the candidate: the servers that offer no resources or prompts answer -32601. */
const NOT_APPLICABLE = [
  'filesystem/stdio/prompts/list',
  'filesystem/stdio/resources/list',
  'filesystem/stdio/resources/templates/list',
  'memory/stdio/prompts/list',
  'sequential-thinking/stdio/prompts/list',
  'sequential-thinking/stdio/resources/list',
  'sequential-thinking/stdio/resources/templates/list',
];

describe('transparency: the official servers', () => {
  it('calls or names a reason for skipping every tool each server lists, and passthrough preserves every operation', async () => {
    const report = await runTransparency(await passthroughCandidate(), OPTIONS, ['official-servers']);
    const { results } = report;
    expect(ids(results, 'not-applicable')).toEqual(NOT_APPLICABLE);
    expect(results.filter((result) => result.verdict !== 'preserved' && result.verdict !== 'not-applicable')).toEqual([]);
    expect(report.score.preserved).toBeGreaterThan(120);
    for (const script of SESSIONS) {
      for (const transport of script.transports) {
        const session = `${script.server}/${transport}`;
        const listing = results.find((result) => result.id === `${session}/tools/list`);
        expect(listing?.verdict, session).toBe('preserved');
        const called = new Set(results.filter((result) => result.id.startsWith(`${session}/tools/call:`)).map((result) => result.id.slice(`${session}/tools/call:`.length).split('#')[0]));
        for (const skipped of Object.keys(script.skipped)) expect(called.has(skipped), `${session} skips ${skipped}`).toBe(false);
        expect(called.size + Object.keys(script.skipped).length, `${session}: every listed tool called or skipped`).toBe(TOOL_COUNTS[script.server]);
      }
    }
  }, 240_000);

  /**
   * The reference under the permitting configuration changes nothing and breaks nothing: the tool
   * listings show the server's hints because the operator's rules state them (CLS-3), text reaches
   * the agent in the server's characters (INS-1 normalises for detection only), non-text content
   * passes (`non_text: pass`), the roots/list server-everything sends over HTTP outside any call
   * reaches the agent on the GET stream the reference opens, and the one server-filesystem sends as
   * soon as it is initialized, before the agent has, is held until the agent's initialize.
   */
  it('the reference preserves every operation under the permitting configuration', async () => {
    const { results } = await runTransparency(referenceCandidate(), OPTIONS, ['official-servers']);
    expect(ids(results, 'not-applicable')).toEqual(NOT_APPLICABLE);
    expect(ids(results, 'broken')).toEqual([]);
    expect(results.filter((result) => result.verdict === 'changed')).toEqual([]);
    for (const id of ['everything/http/roots/list', 'everything/http/tools/call:get-roots-list', 'filesystem/stdio/roots/list', 'everything/stdio/tools/list', 'filesystem/stdio/tools/list', 'everything/stdio/tools/call:echo', 'everything/stdio/tools/call:trigger-sampling-request', 'everything/stdio/tools/call:trigger-long-running-operation', 'filesystem/stdio/tools/call:edit_file', 'memory/stdio/tools/call:read_graph']) {
      expect(results.find((result) => result.id === id)?.verdict, id).toBe('preserved');
    }
  }, 240_000);

  it('a broker that drops every notification is broken on exactly the progress it kept from the agent', async () => {
    const { results } = await runTransparency(dropperCandidate('notifications'), OPTIONS, ['official-servers']);
    expect(ids(results, 'broken')).toEqual(['everything/stdio/tools/call:trigger-long-running-operation']);
    expect(results.find((result) => result.verdict === 'broken')?.detail).toMatch(/\/progress\/0: direct .*through the candidate absent/);
  }, 240_000);

  it('is unsupported, not broken, for sessions a candidate cannot run; broken when it refuses the configuration', async () => {
    const urlOnly: Candidate = {
      info: { name: 'url-only', version: '0', adapterProtocol: ADAPTER_PROTOCOL, claims: [], upstreams: ['url'] },
      pin: async () => ({ ok: false, detail: 'refuses everything' }),
      start: () => Promise.reject(new Error('never started')),
    };
    const { results, score } = await runTransparency(urlOnly, OPTIONS, ['official-servers']);
    expect(new Set(results.filter((result) => !result.id.startsWith('everything/http/')).map((result) => result.verdict))).toEqual(new Set(['unsupported']));
    const http = results.filter((result) => result.id.startsWith('everything/http/') && result.verdict !== 'not-applicable');
    expect(new Set(http.map((result) => result.verdict))).toEqual(new Set(['broken']));
    expect(http[0]?.detail).toMatch(/refused the permitting configuration at pin: refuses everything/);
    expect(score.preserved).toBe(0);
  }, 240_000);
});

/** How many tools each server lists to this agent (2026.8.31; server-everything offers its sampling, elicitation and roots tools only to an agent declaring them, and its two task-based async tools only to one declaring tasks, which this agent does not). */
const TOOL_COUNTS: Record<string, number> = { everything: 17, filesystem: 14, memory: 9, 'sequential-thinking': 1 };
