// The tasks extension (2026-07-28) at the reference broker, which serves no tasks: an agent that
// declares the extension is not the broker's to speak for, so its call goes to the server without
// it and is answered with the call's result; a server's task result is withheld as a result of a
// resultType the broker does not know; and the task methods are refused before any server sees
// them under tasks-withheld, relayed as they are without it. Against an in-memory server.

import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/operator/config.js';
import { ALL_GUARDS, selectGuards, type Guards } from '../../src/guards/registry.js';
import { decideTools } from '../../src/load/load.js';
import { Session } from '../../src/session/session.js';
import { CONTEXT, config, initialized, pinOf, rule, tool } from './builders.js';
import { FakeRequester } from './fake-requester.js';
import type { RegisteredTool } from '../../src/types.js';

const listed = [tool('search_notes')];
const registered: readonly RegisteredTool[] = decideTools(listed, { server: 'notes', tools: new Map(listed.map((t) => [t.name, pinOf(t)])) }, config({ search_notes: rule('read_only') }), ALL_GUARDS).registered;

/** A 2026-07-28 request's `_meta`, its capabilities declaring the tasks extension. */
const META = '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}';

function session(answer: ConstructorParameters<typeof FakeRequester>[0], guards: Guards = ALL_GUARDS) {
  const upstream = new FakeRequester(answer);
  const sent: string[] = [];
  const s = new Session({ tools: registered, guards, context: CONTEXT, limits: { ...DEFAULT_LIMITS, callTimeoutMs: 500 }, serverEnv: new Map(), upstream, audit: undefined, send: (line) => sent.push(line) });
  return { s, upstream, sent };
}

const FOREIGN = '{"resultType":"complete","taskId":"task-0","status":"completed","result":{"content":[{"type":"text","text":"private"}]}}';

describe('tasks at the reference broker', () => {
  it('sends a call to the server without the agent’s tasks extension', async () => {
    const { s, upstream, sent } = session(() => '{"content":[{"type":"text","text":"Found 3 notes."}]}');
    s.handleLine(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_notes","arguments":{},${META}}}`);
    await s.settled();
    expect(upstream.asked.map((a) => a.params)).toEqual(['{"name":"search_notes","arguments":{}}']);
    expect(sent[0]).toContain('Found 3 notes.');
  });

  it('withholds a task a server answers a call with all the same', async () => {
    const { s, sent } = session(() => '{"resultType":"task","taskId":"task-1","status":"working","createdAt":"2026-01-01T00:00:00Z","lastUpdatedAt":"2026-01-01T00:00:00Z","ttlMs":60000}');
    s.handleLine(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_notes","arguments":{},${META}}}`);
    await s.settled();
    expect(sent[0]).toContain('result_withheld');
    expect(sent[0]).not.toContain('task-1');
  });

  it.each(['tasks/get', 'tasks/update', 'tasks/cancel'])('refuses %s under tasks-withheld before any server sees it', async (method) => {
    const { s, upstream, sent } = session(() => FOREIGN);
    s.handleLine(`{"jsonrpc":"2.0","id":1,"method":"${method}","params":{"taskId":"task-0",${META}}}`);
    await s.settled();
    expect(upstream.asked).toEqual([]);
    expect(JSON.parse(sent[0]!)).toMatchObject({ id: 1, error: { code: -32601, message: expect.stringContaining('the broker serves no tasks') } });
  });

  it('relays a task method to the server as it is without tasks-withheld', async () => {
    const { s, upstream, sent } = session(() => FOREIGN, selectGuards(['tasks-withheld']));
    s.handleLine(`{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":"task-0",${META}}}`);
    await s.settled();
    expect(upstream.asked.map((a) => [a.method, a.params])).toEqual([['tasks/get', '{"taskId":"task-0","_meta":{}}']]);
    expect(sent[0]).toContain('private');
  });

  it('answers an agent of the handshake’s revisions as before: a task method is unknown, guard or not', async () => {
    const { s, upstream, sent } = session(() => FOREIGN, selectGuards(['tasks-withheld']));
    initialized(s, sent);
    s.handleLine('{"jsonrpc":"2.0","id":9,"method":"tasks/get","params":{"taskId":"task-0"}}');
    await s.settled();
    expect(upstream.asked.filter((a) => a.method === 'tasks/get')).toEqual([]);
    expect(JSON.parse(sent.at(-1)!)).toMatchObject({ id: 9, error: { code: -32601, message: 'Method not found: tasks/get' } });
  });
});
