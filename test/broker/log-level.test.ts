// The agent's logging/setLevel: sent to every server that declared logging, only with a level MCP
// names, and the log messages that follow still judged by the notification guards.

import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/operator/config.js';
import { DEFAULT_SERVER_REQUESTS } from '../../src/operator/server-requests.js';
import { ALL_GUARDS } from '../../src/guards/registry.js';
import { Session, type SessionServer } from '../../src/session/session.js';
import { CONTEXT } from './builders.js';
import { FakeRequester } from './fake-requester.js';

type Answer = ConstructorParameters<typeof FakeRequester>[0];

/** A session over servers that each declared logging or not, initialized by the agent. */
function session(servers: readonly { logging: boolean; answer?: Answer }[]) {
  const upstreams = servers.map(({ answer }) => new FakeRequester(answer ?? (() => '{}')));
  const byId = new Map<string, SessionServer>(upstreams.map((upstream, i) => [`s${i}`, { upstream, logging: servers[i]!.logging }]));
  const sent: string[] = [];
  const s = new Session({
    tools: [],
    guards: ALL_GUARDS,
    context: CONTEXT,
    limits: { ...DEFAULT_LIMITS, callTimeoutMs: 99 },
    serverEnv: new Map([['NOTES_TOKEN', 'sk-live-0123456789abcdef0123']]),
    upstream: upstreams[0]!,
    servers: byId,
    audit: undefined,
    send: (line) => sent.push(line),
    serverRequests: DEFAULT_SERVER_REQUESTS,
  });
  s.handleLine('{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}');
  return { s, sent, upstreams };
}

const setLevel = (level: string) => `{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":${JSON.stringify(level)},"extra":"x"}}`;

describe('logging/setLevel', () => {
  it('declares logging to the agent when a server did, and sends only the level to each server that declared it', async () => {
    const { s, sent, upstreams } = session([{ logging: true }, { logging: false }, { logging: true }]);
    expect(JSON.parse(sent[0]!).result.capabilities.logging).toEqual({});
    s.handleLine(setLevel('warning'));
    await s.settled();
    expect(JSON.parse(sent[1]!)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    expect(upstreams.map((upstream) => upstream.asked.map((asked) => [asked.method, asked.params]))).toEqual([
      [['logging/setLevel', '{"level":"warning"}']],
      [],
      [['logging/setLevel', '{"level":"warning"}']],
    ]);
  });

  it('refuses a level MCP does not name as invalid params, and asks no server', async () => {
    const { s, sent, upstreams } = session([{ logging: true }]);
    for (const line of [setLevel('verbose'), setLevel('WARNING'), '{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{}}', '{"jsonrpc":"2.0","id":1,"method":"logging/setLevel"}']) s.handleLine(line);
    await s.settled();
    const answers = sent.slice(1).map((line) => JSON.parse(line));
    expect(answers.map((answer) => answer.error?.code)).toEqual([-32602, -32602, -32602, -32602]);
    expect(answers[0].error.message).toBe('Invalid params: level must be one of debug, info, notice, warning, error, critical, alert, emergency');
    expect(upstreams[0]!.asked).toEqual([]);
  });

  it('answers -32601 when no server declared logging, as before there was anything to set', async () => {
    const { s, sent, upstreams } = session([{ logging: false }]);
    expect(JSON.parse(sent[0]!).result.capabilities.logging).toBeUndefined();
    s.handleLine(setLevel('info'));
    await s.settled();
    expect(JSON.parse(sent[1]!).error.code).toBe(-32601);
    expect(upstreams[0]!.asked).toEqual([]);
  });

  it("says how many servers did not accept the level, without their own words", async () => {
    const { s, sent } = session([
      { logging: true, answer: () => ({ error: '{"code":-32602,"message":"see NOTES_TOKEN sk-live-0123456789abcdef0123"}' }) },
      { logging: true, answer: () => new Error('server gone') },
      { logging: true },
    ]);
    s.handleLine(setLevel('debug'));
    await s.settled();
    expect(JSON.parse(sent[1]!).error).toEqual({ code: -32000, message: '2 of 3 server(s) did not accept the log level debug' });
  });

  it('still judges the log messages that follow by the notification guards', async () => {
    const { s, sent, upstreams } = session([{ logging: true }]);
    s.handleLine(setLevel('debug'));
    await s.settled();
    upstreams[0]!.serverNotifies('notifications/message', '{"level":"debug","data":"token sk-live-0123456789abcdef0123 used"}');
    const notice = JSON.parse(sent[2]!);
    expect(notice.method).toBe('notifications/message');
    expect(JSON.stringify(notice)).not.toContain('sk-live-0123456789abcdef0123');
  });
});
