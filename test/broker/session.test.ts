// The agent-facing session, against an in-memory server: the broker's own answers, and calls
// forwarded exactly or refused.

import { describe, expect, it } from 'vitest';
import { ALL_GUARDS } from '../../src/guards/registry.js';
import { decideTools, type RegisteredTool } from '../../src/load.js';
import { Session } from '../../src/session.js';
import { UpstreamError } from '../../src/errors.js';
import { config, pinOf, rule, tool } from './builders.js';
import { FakeRequester } from './fake-requester.js';

const listed = [tool('search_notes', { schema: '{"type":"object","properties":{"limit":{"maximum":9007199254740993}}}' })];
const registered: readonly RegisteredTool[] = decideTools(
  listed,
  { server: 'notes', tools: new Map(listed.map((t) => [t.name, pinOf(t)])) },
  config({ search_notes: rule('read_only', { callTimeoutMs: 1234 }) }),
  ALL_GUARDS,
).registered;

function session(answer: ConstructorParameters<typeof FakeRequester>[0] = () => '{"content":[]}', callGuards = ALL_GUARDS.call) {
  const upstream = new FakeRequester(answer);
  const sent: string[] = [];
  const s = new Session({ tools: registered, callGuards, defaultCallTimeoutMs: 99, upstream, send: (line) => sent.push(line) });
  return { s, upstream, sent };
}

describe('Session', () => {
  it('answers initialize, ping and tools/list itself, and ignores notifications', () => {
    const { s, sent, upstream } = session();
    s.handleLine('{"jsonrpc":"2.0","id":"a","method":"initialize","params":{"protocolVersion":"2025-06-18"}}');
    s.handleLine('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2099-01-01"}}');
    s.handleLine('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    s.handleLine('{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}');
    s.handleLine('{"jsonrpc":"2.0","id":3,"method":"tools/list"}');
    s.handleLine('{"jsonrpc":"2.0","id":4,"method":"resources/list"}');
    expect(sent).toEqual([
      '{"jsonrpc":"2.0","id":"a","result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"gauntlet-reference-broker","version":"0.1.0"}}}',
      '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"gauntlet-reference-broker","version":"0.1.0"}}}',
      '{"jsonrpc":"2.0","id":9007199254740993,"result":{}}',
      '{"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"search_notes","description":"search_notes does things","inputSchema":{"type":"object","properties":{"limit":{"maximum":9007199254740993}}},"annotations":{"readOnlyHint":true,"destructiveHint":false}}]}}',
      '{"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"Method not found: resources/list"}}',
    ]);
    expect(upstream.asked).toEqual([]);
  });

  it('answers unreadable lines with a null id', () => {
    const { s, sent } = session();
    s.handleLine('{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}');
    s.handleLine('[{"jsonrpc":"2.0","id":1,"method":"ping"}]');
    s.handleLine('{"id":1,"method":"ping"}');
    expect(sent.map((line) => JSON.parse(line).error.code)).toEqual([-32700, -32600, -32600]);
    expect(sent.every((line) => JSON.parse(line).id === null)).toBe(true);
  });

  it('forwards a registered call exactly, with its timeout, and passes the result back under the agent id', async () => {
    const { s, sent, upstream } = session(() => '{"content":[],"structuredContent":{"n":12345678901234567890}}');
    s.handleLine('{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"search_notes","arguments":{"z":1.50,"a":9007199254740993},"_meta":{"p":1}}}');
    await s.settled();
    expect(upstream.asked).toEqual([{ method: 'tools/call', params: '{"name":"search_notes","arguments":{"z":1.50,"a":9007199254740993}}', timeoutMs: 1234 }]);
    expect(sent).toEqual(['{"jsonrpc":"2.0","id":"x","result":{"content":[],"structuredContent":{"n":12345678901234567890}}}']);
  });

  it('passes an upstream error on, and turns a failure into an error naming it', async () => {
    const errors = session(() => ({ error: '{"code":-32602,"message":"bad","data":{"n":1e400}}' }));
    errors.s.handleLine('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_notes"}}');
    await errors.s.settled();
    expect(errors.sent).toEqual(['{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad","data":{"n":1e400}}}']);
    expect(errors.upstream.asked[0]?.params).toBe('{"name":"search_notes"}');

    const failing = session(() => new UpstreamError('server "notes" did not answer tools/call "search_notes" within 1234 ms'));
    failing.s.handleLine('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_notes","arguments":{}}}');
    await failing.s.settled();
    expect(JSON.parse(failing.sent[0] ?? '')).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32000, message: 'server "notes" did not answer tools/call "search_notes" within 1234 ms' },
    });
  });

  it('refuses an unregistered or malformed call without forwarding it', async () => {
    const { s, sent, upstream } = session();
    s.handleLine('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"write_note","arguments":{}}}');
    s.handleLine('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_notes","arguments":[1]}}');
    s.handleLine('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{}}');
    await s.settled();
    expect(sent.map((line) => JSON.parse(line).error)).toEqual([
      { code: -32602, message: 'Unknown tool: write_note' },
      { code: -32602, message: 'Invalid params: tools/call needs a string name and object arguments' },
      { code: -32602, message: 'Invalid params: tools/call needs a string name and object arguments' },
    ]);
    expect(upstream.asked).toEqual([]);
  });

  it('without registered-calls-only, forwards any name with the default timeout', async () => {
    const { s, upstream } = session(undefined, []);
    s.handleLine('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"write_note","arguments":{}}}');
    await s.settled();
    expect(upstream.asked).toEqual([{ method: 'tools/call', params: '{"name":"write_note","arguments":{}}', timeoutMs: 99 }]);
  });
});
