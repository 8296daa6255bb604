// The call path end to end: the compiled broker as a separate process, against the fake server,
// configured as an operator would. What the agent sees, what the server receives (its raw call
// log), what the audit trail says, and that nothing a schema names is ever fetched.

import { createServer, type Server } from 'node:http';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Workdir, rulesFor, toolsText, waitDead, waitFor, type ToolText } from './e2e-helpers.js';

const WRITE: ToolText = {
  name: 'write_note',
  schema:
    '{"type":"object","properties":{"text":{"type":"string","maxLength":20},"sidenote":{"type":"string"},"folder":{"type":"string"}},"required":["text","folder"],"additionalProperties":false}',
};
const READ: ToolText = { name: 'read_note', annotations: '{"readOnlyHint":true}' };
const DELETE: ToolText = { name: 'delete_note', schema: '{"type":"object","properties":{"id":{"type":"integer"}}}' };
const RULES = {
  write_note: { effect: 'local_change', rename: 'save_note', deny: ['sidenote'], fixed: { folder: 'inbox' }, permission: 'notes.write' },
  read_note: { effect: 'read_only', data_classification: 'public' },
  delete_note: { effect: 'destructive' },
  hang: { effect: 'read_only', call_timeout_ms: 300 },
  release: { effect: 'read_only' },
};
const OPERATOR = {
  prefix: 'nt',
  grants: [{ permission: 'notes.write', expires_at: '2999-01-01T00:00:00Z' }],
  policy: { destructive: 'approve' },
  agents: { writer: { tools: ['write_note', 'read_note', 'delete_note', 'hang', 'release'] }, researcher: { tools: ['read_note'] } },
};

let work: Workdir;
let canary: Server | undefined;
afterEach(async () => {
  await work.cleanup();
  await new Promise((resolve) => (canary === undefined ? resolve(undefined) : canary.close(resolve)));
  canary = undefined;
});

async function pinned(tools: ToolText[], operator: object = OPERATOR): Promise<Workdir> {
  work = new Workdir();
  work.spec({ pages: [toolsText(tools)] });
  work.writeConfig(rulesFor(RULES, tools), operator);
  const pin = await work.pin();
  expect(pin.code, pin.stderr).toBe(0);
  return work;
}

const calls = (w: Workdir) => w.received().filter((line) => JSON.parse(line).method === 'tools/call');
const code = (line: string) => JSON.parse(line).result?.structuredContent?.code;

describe('the call path, end to end', () => {
  it('names, hidden and fixed parameters, grants, receipts, approvals and the audit trail', async () => {
    const w = await pinned([WRITE, READ, DELETE]);
    const state = w.path('state');
    const broker = w.serve('--agent', 'writer', '--state-dir', state);
    await broker.initialize();

    const tools = JSON.parse(await broker.request(1, 'tools/list')).result.tools;
    expect(tools.map((t: { name: string }) => t.name)).toEqual(['save_note', 'nt_read_note', 'nt_delete_note']);
    expect(tools[0].inputSchema).toEqual({
      type: 'object',
      properties: { text: { type: 'string', maxLength: 20 } },
      required: ['text'],
      additionalProperties: false,
    });
    expect(w.loadReport().registered.map((r: { tool: string; name: string }) => [r.tool, r.name])).toEqual([
      ['write_note', 'save_note'],
      ['read_note', 'nt_read_note'],
      ['delete_note', 'nt_delete_note'],
    ]);

    // Refused before dispatch: the server's log shows no call.
    expect(code(await broker.call(2, 'save_note', '{"text":"hi","sidenote":"psst"}'))).toBe('parameter_not_allowed');
    expect(code(await broker.call(3, 'save_note', '{"text":"hi","folder":"elsewhere"}'))).toBe('parameter_not_allowed');
    expect(code(await broker.call(4, 'save_note', '{"text":7}'))).toBe('tool_input_schema_invalid');
    expect(code(await broker.call(5, 'save_note', '{"text":"hi","n":9007199254740993}'))).toBe('tool_input_schema_invalid');
    expect(JSON.parse(await broker.call(6, 'write_note', '{"text":"hi"}')).error.message).toBe('Unknown tool: write_note');
    expect(calls(w)).toEqual([]);

    // Allowed: forwarded under the server name with the fixed value injected, and a receipt back.
    const saved = JSON.parse(await broker.call(7, 'save_note', '{"text":"hi"}'));
    expect(saved.result._meta).toEqual({
      'io.mcp-gauntlet/receipt': { tool: 'save_note', permission: 'notes.write', trust: 'untrusted', data_classification: 'workspace' },
    });
    expect(calls(w)).toHaveLength(1);
    expect(calls(w)[0]).toContain('"params":{"name":"write_note","arguments":{"text":"hi","folder":"inbox"}}');
    const read = JSON.parse(await broker.call(8, 'nt_read_note'));
    expect(read.result._meta['io.mcp-gauntlet/receipt']).toEqual({ tool: 'nt_read_note', permission: null, trust: 'untrusted', data_classification: 'public' });

    // Approval: held, filed for the operator, run once when approved, then held again.
    const held = JSON.parse(await broker.call(9, 'nt_delete_note', '{"id":1}')).result.structuredContent;
    expect(held).toEqual({ code: 'approval_required', request_id: expect.any(String), tool: 'nt_delete_note', arguments: '{"id":1}' });
    expect(JSON.parse(await broker.call(10, 'nt_delete_note', '{"id":1}')).result.structuredContent).toEqual(held);
    const request = JSON.parse(readFileSync(join(state, 'approvals', `${held.request_id}.json`), 'utf8'));
    expect(request).toEqual({
      request_id: held.request_id,
      tool: 'delete_note',
      name: 'nt_delete_note',
      arguments: '{"id":1}',
      forwarded: '{"id":1}',
      agent: 'writer',
    });
    expect(calls(w)).toHaveLength(2);
    writeFileSync(join(state, 'decisions', `${held.request_id}.json`), '{"decision":"approve"}');
    expect(code(await broker.call(11, 'nt_delete_note', '{"id":2}'))).toBe('approval_required');
    expect(JSON.parse(await broker.call(12, 'nt_delete_note', '{"id":1}')).result.content[0].text).toBe('called delete_note');
    expect(code(await broker.call(13, 'nt_delete_note', '{"id":1}'))).toBe('approval_required');
    expect(calls(w).map((line) => JSON.parse(line).params.name)).toEqual(['write_note', 'read_note', 'delete_note']);

    broker.closeInput();
    expect((await broker.exit()).code).toBe(0);

    const audit = join(state, 'audit.jsonl');
    const records = readFileSync(audit, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(records.map((r) => [r.decision, r.tool, r.code])).toEqual([
      ['registered', 'write_note', null],
      ['registered', 'read_note', null],
      ['registered', 'delete_note', null],
      ['call_refused', 'write_note', 'parameter_not_allowed'],
      ['call_refused', 'write_note', 'parameter_not_allowed'],
      ['call_refused', 'write_note', 'tool_input_schema_invalid'],
      ['call_refused', 'write_note', 'tool_input_schema_invalid'],
      ['call_refused', 'write_note', null],
      ['allowed', 'write_note', null],
      ['call_answered', 'write_note', null],
      ['allowed', 'read_note', null],
      ['call_answered', 'read_note', null],
      ['approval_requested', 'delete_note', null],
      ['call_refused', 'delete_note', 'approval_required'],
      ['call_refused', 'delete_note', 'approval_required'],
      ['approval_requested', 'delete_note', null],
      ['call_refused', 'delete_note', 'approval_required'],
      ['approval_granted', 'delete_note', null],
      ['allowed', 'delete_note', null],
      ['call_answered', 'delete_note', null],
      ['approval_requested', 'delete_note', null],
      ['call_refused', 'delete_note', 'approval_required'],
    ]);
    // The name asked for that no tool has: tool_exists is false.
    expect(records[7]).toMatchObject({ name: 'write_note', tool_exists: false, agent: 'writer' });
    expect(records[3]).toMatchObject({ name: 'save_note', tool_exists: true });
    expect((await w.run(['audit-verify', audit])).code).toBe(0);
    const lines = readFileSync(audit, 'utf8').split('\n');
    writeFileSync(audit, lines.map((line, i) => (i === 8 ? line.replace('"allowed"', '"call_refused"') : line)).join('\n'));
    const tampered = await w.run(['audit-verify', audit]);
    expect(tampered.code).toBe(1);
    expect(tampered.stdout).toContain('tampered at seq 9');
  });

  it('answers a tool another agent may use exactly like one that does not exist', async () => {
    const w = await pinned([WRITE, READ, DELETE]);
    const broker = w.serve('--agent', 'researcher', '--audit', w.path('audit.jsonl'));
    await broker.initialize();
    expect(JSON.parse(await broker.request(1, 'tools/list')).result.tools.map((t: { name: string }) => t.name)).toEqual(['nt_read_note']);
    const hidden = await broker.call(2, 'save_note', '{"text":"hi"}');
    const missing = await broker.call(2, 'nothing_here', '{"text":"hi"}');
    expect(hidden).toBe(missing.replace('nothing_here', 'save_note'));
    // A chain naming a hop that may not use the tool, or none the broker knows, is refused.
    const chain = (hops: string[]) => `{"name":"nt_read_note","arguments":{},"_meta":{"io.mcp-gauntlet/agent-chain":${JSON.stringify(hops)}}}`;
    expect(code(await broker.request(3, 'tools/call', chain(['writer'])))).toBeUndefined();
    expect(JSON.parse(await broker.request(4, 'tools/call', chain(['stranger']))).result.structuredContent).toEqual({ code: 'agent_chain_denied', hop: 'stranger' });
    expect(code(await broker.request(5, 'tools/call', chain(Array(9).fill('writer'))))).toBe('agent_chain_too_long');
    expect(calls(w).map((line) => JSON.parse(line).params.name)).toEqual(['read_note']);
    broker.closeInput();
    await broker.exit();
    const refused = readFileSync(w.path('audit.jsonl'), 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line)).filter((r) => r.decision === 'call_refused');
    expect(refused.slice(0, 2).map((r) => [r.tool, r.tool_exists, r.agent])).toEqual([
      ['save_note', true, 'researcher'],
      ['nothing_here', false, 'researcher'],
    ]);
  });

  it('exits 2 before starting the server when the agent is missing or unknown', async () => {
    const w = await pinned([READ]);
    for (const args of [[], ['--agent', 'stranger']]) {
      const exit = await w.serve(...args).exit();
      expect(exit.code).toBe(2);
      expect(exit.stderr).toMatch(/--agent/);
    }
    expect(w.received().filter((line) => line.includes('"initialize"'))).toHaveLength(1); // the pin's
  });

  it('refuses at load a schema that points outside itself, and fetches nothing it names', async () => {
    let requests = 0;
    canary = createServer((_req, res) => {
      requests += 1;
      res.end('{}');
    });
    await new Promise<void>((resolve) => canary?.listen(0, '127.0.0.1', resolve));
    const address = canary.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
    const outside: ToolText = {
      name: 'read_note',
      schema: `{"$schema":"${url}/meta","$id":"${url}/s.json","type":"object","properties":{"a":{"$ref":"${url}/a.json","default":{"$ref":"${url}/d.json"}}}}`,
    };
    const w = await pinned([outside], {});
    const refused = w.serve();
    await refused.exit();
    expect(w.loadReport().refused).toEqual([
      { tool: 'read_note', guard: 'self-contained', reason: `its input schema is not self-contained: $schema "${url}/meta" is not a well-known dialect at /$schema` },
    ]);
    // Without the guard the tool registers, and still nothing is fetched.
    const unguarded = w.serve('--disable-guard', 'self-contained');
    await unguarded.initialize();
    expect(JSON.parse(await unguarded.call(1, 'read_note', '{"a":"x"}')).result.content[0].text).toBe('called read_note');
    unguarded.closeInput();
    await unguarded.exit();
    expect(requests).toBe(0);
  });

  it('drops the late answer to a timed-out call, and stops cleanly when closed during a call', async () => {
    const w = await pinned([READ, { name: 'hang' }, { name: 'release' }], {});
    const broker = w.serve();
    await broker.initialize();
    expect(code(await broker.call(1, 'hang'))).toBe('tool_timeout');
    expect(JSON.parse(await broker.call(2, 'release')).result.content[0].text).toBe('called release');
    // The late answer reached the broker first (the server sends it before release's) and was dropped.
    expect(broker.lines.filter((line) => JSON.parse(line).id === 1)).toHaveLength(1);
    expect(broker.lines.some((line) => line.includes('"late"'))).toBe(false);

    const pending = broker.call(3, 'hang');
    broker.closeInput();
    // The agent has gone: the broker stops the server at once rather than wait out the timeout,
    // and the call in flight is answered with that.
    expect(code(await pending)).toBe('server_unavailable');
    expect((await broker.exit()).code).toBe(0);
    const serverPid = Number(readFileSync(w.serverPidFile, 'utf8'));
    expect(await waitDead(serverPid)).toBe(true);
  });

  it('answers a call that waits on a rediscovery with server_unavailable when the agent leaves, not a drift', async () => {
    const w = await pinned([READ, { name: 'release' }], {});
    const broker = w.serve();
    await broker.initialize();
    // Pin and Load have listed; from now on the server lists no more, so the rediscovery that
    // release's notice starts is still waiting for its listing when the agent leaves.
    const listings = () => w.received().filter((line) => JSON.parse(line).method === 'tools/list').length;
    const loaded = listings();
    w.spec({ pages: [toolsText([READ, { name: 'release' }])], listing: 'hang' });
    expect(JSON.parse(await broker.call(1, 'release')).result.content[0].text).toBe('called release');
    await waitFor(() => listings() === loaded + 1, 'the rediscovery to list');
    const waiting = broker.call(2, 'read_note');
    broker.closeInput();
    // The broker closed the connection itself: the listing that failed for that says nothing of
    // the tools, and the call goes no further than the closed connection.
    expect(code(await waiting)).toBe('server_unavailable');
    expect(calls(w).map((line) => JSON.parse(line).params.name)).toEqual(['release']);
    expect((await broker.exit()).code).toBe(0);
  });

  it('a broker signalled twice during a call still stops its server and exits', async () => {
    const w = await pinned([{ name: 'hang' }], {});
    const broker = w.serve();
    await broker.initialize();
    void broker.call(1, 'hang').catch(() => undefined);
    await waitFor(() => calls(w).length === 1, 'the server to receive the call');
    broker.child.kill('SIGTERM');
    broker.child.kill('SIGTERM');
    const exit = await broker.exit();
    expect(exit.code).toBe(143);
    expect(await waitDead(Number(readFileSync(w.serverPidFile, 'utf8')))).toBe(true);
  });

  it('keeps approvals in a private directory it names when no --state-dir is given', async () => {
    const w = await pinned([DELETE], { policy: { destructive: 'approve' } });
    const broker = w.serveAsGiven();
    await broker.initialize();
    expect(code(await broker.call(1, 'delete_note', '{}'))).toBe('approval_required');
    broker.closeInput();
    const exit = await broker.exit();
    const dir = /approvals are kept in (\S+)/.exec(exit.stderr)?.[1] ?? '';
    try {
      expect(readdirSync(join(dir, 'approvals'))).toHaveLength(1);
    } finally {
      if (dir.startsWith(tmpdir())) rmSync(dir, { recursive: true, force: true });
    }
  });
});
