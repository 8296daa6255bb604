// A 2026-07-28 case driven end to end through the runner against a stand-in broker that speaks
// that revision itself (until the kit and the reference do): the start opens with server/discover,
// every request carries the revision's _meta, and a call answered input_required is answered from
// the scenario's client side and retried, the input request judged as a request that reached the
// agent. The stand-in starts no server, so the checks read from the ledger fail, as they must.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../harness/catalogue.js';
import { spawnChannel } from '../../harness/candidates/child.js';
import { ADAPTER_PROTOCOL, type Candidate } from '../../harness/candidates/types.js';
import { runScenario } from '../../harness/run/execute.js';

/** Answers as a 2026-07-28 broker: discover, a listing, and a call that first asks for input. */
const STATELESS_BROKER = `
const readline = require('node:readline');
const tools = [{ name: 'search_notes', inputSchema: { type: 'object' } }];
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  const reply = (result) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { resultType: 'complete', ...result } }) + '\\n');
  if (m.params?._meta?.['io.modelcontextprotocol/protocolVersion'] !== '2026-07-28') {
    process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32022, message: 'unsupported protocol version' } }) + '\\n');
  } else if (m.method === 'server/discover') reply({ supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, serverInfo: { name: 'stand-in', version: '0' } });
  else if (m.method === 'subscriptions/listen') process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } }) + '\\n');
  else if (m.method === 'tools/list') reply({ tools, ttlMs: 0, cacheScope: 'private' });
  else if (m.method === 'tools/call' && m.params.requestState === undefined) {
    const ask = { method: 'elicitation/create', params: { mode: 'form', message: 'Which folder should the note go in?', requestedSchema: { type: 'object', properties: { folder: { type: 'string' } } } } };
    process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { resultType: 'input_required', inputRequests: { folder: ask }, requestState: 'state-1' } }) + '\\n');
  } else if (m.method === 'tools/call') reply({ content: [{ type: 'text', text: 'filed in ' + m.params.inputResponses.folder.content.folder + ' (' + m.params.requestState + ')' }] });
});
`;

const stateless: Candidate = {
  info: { name: 'stand-in', version: '0', adapterProtocol: ADAPTER_PROTOCOL, claims: ['listing', 'calls', 'elicitation'], revisions: ['2026-07-28'] },
  async pin() {
    return { ok: true, detail: 'stand-in' };
  },
  async start(spec) {
    return spawnChannel(process.execPath, ['-e', STATELESS_BROKER], { cwd: spec.workdir, stderrFile: join(spec.workdir, 'stand-in.stderr') });
  },
};

describe('a 2026-07-28 case through the runner', () => {
  it('opens with server/discover and subscriptions/listen, sends the revision in every request, answers the request for input and retries, and counts it as a request that reached the agent', async () => {
    const scenario = loadCatalogue('eli.form-shown*').find((s) => s.id === 'eli.form-shown.2026-07-28')!;
    const result = await runScenario(scenario, stateless, { stepTimeoutMs: 3_000 });
    const sent = result.transcript.agent.flatMap((line) => ('from' in line && line.from === 'agent' ? [JSON.parse(line.text) as { method: string; params: Record<string, unknown> }] : []));
    // The agent opens its subscriptions/listen stream after discover; this broker refuses it.
    expect(sent.map((message) => message.method)).toEqual(['server/discover', 'subscriptions/listen', 'tools/call', 'tools/call']);
    for (const message of sent) expect((message.params._meta as Record<string, unknown>)['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
    expect(sent[3]!.params).toMatchObject({ inputResponses: { folder: { action: 'accept', content: { folder: 'inbox' } } }, requestState: 'state-1' });
    // What the agent received and the request for input are judged: only the server's side fails.
    const failed = result.findings.map((finding) => finding.check);
    expect(failed).not.toContain('call.agent_requests_min');
    expect(failed).not.toContain('call.agent_requests_include');
    expect(failed).not.toContain('call.agent');
    expect(failed).not.toContain('start.ready');
    expect(failed.sort()).toEqual(['call.server_reached', 'call.server_replied']);
  });
});
