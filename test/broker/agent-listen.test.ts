// subscriptions/listen at the agent's side of the session (MCP 2026-07-28,
// basic/patterns/subscriptions.mdx; src/session/listeners.ts): the broker acknowledges a listen
// itself with the list changes it relays, and leaves the request open; a server's list change
// reaches each stream that asked for it under that stream's id, never under the id the server
// tagged it with, and only as far as the same guards and bounds let it through as for an agent of
// 2025-11-25; a cancelled stream hears nothing more; the streams of a session are bounded.

import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/operator/config.js';
import { DEFAULT_SERVER_REQUESTS } from '../../src/operator/server-requests.js';
import { ALL_GUARDS } from '../../src/guards/registry.js';
import { decideTools } from '../../src/load/load.js';
import { Session } from '../../src/session/session.js';
import { MAX_LISTENS } from '../../src/session/listeners.js';
import { CONTEXT, config, initialized, pinOf, rule, tool } from './builders.js';
import { FakeRequester } from './fake-requester.js';
import type { RegisteredTool } from '../../src/types.js';

const listed = [tool('search_notes')];
const registered: readonly RegisteredTool[] = decideTools(listed, { server: 'notes', tools: new Map(listed.map((t) => [t.name, pinOf(t)])) }, config({ search_notes: rule('read_only') }), ALL_GUARDS).registered;

const META = '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}';
const listen = (id: number | string, filter: string) => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"subscriptions/listen","params":{${META},"notifications":${filter}}}`;
const ALL_CHANGES = '{"toolsListChanged":true,"promptsListChanged":true,"resourcesListChanged":true}';
/** A list change as a 2026-07-28 server sends it on the broker's own upstream stream (id 7). */
const SERVER_TAGGED = '{"_meta":{"io.modelcontextprotocol/subscriptionId":7}}';

function session(subscriptions?: boolean) {
  const upstream = new FakeRequester(() => '{"content":[]}');
  const sent: string[] = [];
  const s = new Session({ tools: registered, guards: ALL_GUARDS, context: CONTEXT, limits: DEFAULT_LIMITS, serverEnv: new Map(), upstream, audit: undefined, send: (line) => sent.push(line), serverRequests: DEFAULT_SERVER_REQUESTS, ...(subscriptions === undefined ? {} : { subscriptions }) });
  return { s, upstream, sent };
}

describe('a 2026-07-28 agent’s subscriptions/listen', () => {
  it('is acknowledged by the broker with the list changes it relays, under the listen’s id, left open, and never sent to the server', () => {
    const { s, sent, upstream } = session();
    s.handleLine(listen(3, ALL_CHANGES));
    expect(sent).toEqual(['{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":{"resourcesListChanged":true,"promptsListChanged":true},"_meta":{"io.modelcontextprotocol/subscriptionId":3}}}']);
    expect(upstream.asked).toEqual([]);
  });

  it('carries a server’s list change to the stream that asked for it, under the stream’s id and not the server’s; tools’ list changes never', () => {
    const { s, sent, upstream } = session();
    s.handleLine(listen('feed', '{"resourcesListChanged":true}'));
    sent.length = 0;
    upstream.serverNotifies('notifications/resources/list_changed', SERVER_TAGGED);
    upstream.serverNotifies('notifications/prompts/list_changed', SERVER_TAGGED);
    upstream.serverNotifies('notifications/tools/list_changed', SERVER_TAGGED);
    expect(sent).toEqual(['{"jsonrpc":"2.0","method":"notifications/resources/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"feed"}}}']);
  });

  it('hears no list change without a stream, and none on a stream it cancelled; each open stream gets its own copy', () => {
    const { s, sent, upstream } = session();
    s.handleLine(`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{${META}}}`);
    upstream.serverNotifies('notifications/resources/list_changed');
    s.handleLine(listen(2, ALL_CHANGES));
    s.handleLine(listen(3, ALL_CHANGES));
    sent.length = 0;
    upstream.serverNotifies('notifications/prompts/list_changed');
    s.handleLine('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}');
    upstream.serverNotifies('notifications/resources/list_changed');
    expect(sent).toEqual([
      '{"jsonrpc":"2.0","method":"notifications/prompts/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":2}}}',
      '{"jsonrpc":"2.0","method":"notifications/prompts/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":3}}}',
      '{"jsonrpc":"2.0","method":"notifications/resources/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":3}}}',
    ]);
  });

  it('relays a flood only up to the same bound as for an agent of 2025-11-25 (list-changed-bound)', () => {
    const { s, sent, upstream } = session();
    s.handleLine(listen(1, ALL_CHANGES));
    sent.length = 0;
    for (let i = 0; i < 200; i++) upstream.serverNotifies('notifications/resources/list_changed', SERVER_TAGGED);
    expect(sent).toHaveLength(DEFAULT_SERVER_REQUESTS.notifications.maxListChanged);
  });

  it(`refuses a listen under an id already open, and past ${MAX_LISTENS} open streams`, () => {
    const { s, sent } = session();
    for (let id = 1; id <= MAX_LISTENS; id++) s.handleLine(listen(id, '{}'));
    s.handleLine(listen(1, '{}'));
    s.handleLine(listen(MAX_LISTENS + 1, '{}'));
    expect(sent.slice(MAX_LISTENS)).toEqual([
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid request: a subscription with this id is already open"}}',
      `{"jsonrpc":"2.0","id":${MAX_LISTENS + 1},"error":{"code":-32600,"message":"Invalid request: at most ${MAX_LISTENS} subscriptions are open at once in a session"}}`,
    ]);
  });
});

describe('a session with no streams of its own (the front door’s)', () => {
  it('answers a listen as an unknown method, and relays no list change to a 2026-07-28 agent', () => {
    const { s, sent, upstream } = session(false);
    s.handleLine(listen(1, ALL_CHANGES));
    upstream.serverNotifies('notifications/resources/list_changed');
    expect(sent).toEqual(['{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found: subscriptions/listen"}}']);
  });
});

describe('an agent of 2025-11-25', () => {
  it('hears a list change as before, without the subscription id a 2026-07-28 server tagged it with', () => {
    const { s, sent, upstream } = session();
    initialized(s, sent);
    upstream.serverNotifies('notifications/resources/list_changed', '{"_meta":{"io.modelcontextprotocol/subscriptionId":7,"trace":"t1"}}');
    upstream.serverNotifies('notifications/prompts/list_changed', SERVER_TAGGED);
    expect(sent).toEqual([
      '{"jsonrpc":"2.0","method":"notifications/resources/list_changed","params":{"_meta":{"trace":"t1"}}}',
      '{"jsonrpc":"2.0","method":"notifications/prompts/list_changed","params":{}}',
    ]);
  });
});
