// The server connection (src/upstream/connection.ts) over a scripted stand-in for the server
// process, so each rule is shown exactly and at once: the lines the broker writes, an answer
// matched only by the id literal it wrote, the bounds on requests in flight and on what the
// server has left unread, timeouts that tell the server, every way the server can go and what
// each request is then told, the server's own requests and notifications, and an answer too long
// to read placed by its id. upstream.test.ts shows the connection against a real process.

import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RequestTimedOut, ResultOverLimit, ResultTooLarge, ServerGone, UpstreamError } from '../../src/errors.js';
import { plain } from '../../src/json/tree.js';
import { writeJson } from '../../src/json/writer.js';
import { Connection, type Reply } from '../../src/upstream/connection.js';
import { HOLD_MS, MAX_HELD_REQUESTS } from '../../src/upstream/inbound.js';
import { replyText } from './fake-requester.js';
import type { ServerProcess } from '../../src/upstream/process.js';

/** A server process played by the test: what the broker writes to it, and what it says back. */
class ScriptedServer {
  readonly stdout = new PassThrough();
  readonly written: string[] = [];
  queued = 0;
  closed = 0;
  private exit!: (how: string) => void;
  readonly exited = new Promise<string>((resolve) => (this.exit = resolve));

  write(line: string): void {
    this.written.push(line);
  }
  queuedBytes(): number {
    return this.queued;
  }
  close(): Promise<void> {
    this.closed++;
    return Promise.resolve();
  }
  /** The server sends a line (a newline is added unless `raw`). */
  says(text: string, raw = false): void {
    this.stdout.write(raw ? text : `${text}\n`);
  }
  exits(how: string): void {
    this.exit(how);
  }
}

let server: ScriptedServer;
function connect(maxLineBytes?: number, maxQueuedBytes?: number): Connection {
  server = new ScriptedServer();
  return new Connection('notes', server as unknown as ServerProcess, maxLineBytes, maxQueuedBytes);
}
/** Lets the stream deliver what the server said, and the promises settle. */
const settle = () => new Promise((done) => setImmediate(done));

afterEach(() => {
  vi.useRealTimers();
});

describe('requests', () => {
  it('writes each request with the next integer id, and resolves it with the answer of that id', async () => {
    const connection = connect();
    const first = connection.request('tools/list', plain({}), 5000, 'tools/list');
    const second = connection.request('ping', undefined, 5000, 'ping');
    expect(server.written).toEqual(['{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}', '{"jsonrpc":"2.0","id":2,"method":"ping"}']);
    server.says('{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"no"}}');
    server.says('{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}');
    expect(replyText(await first)).toEqual({ ok: true, result: '{"tools":[]}' });
    expect(replyText(await second)).toEqual({ ok: false, error: '{"code":-32601,"message":"no"}' });
  });

  it('matches an answer only by the number literal the broker wrote: a string id, 1.0 or an answer to nothing is dropped', async () => {
    const connection = connect();
    const call = connection.request('tools/list', plain({}), 5000, 'tools/list');
    server.says('{"jsonrpc":"2.0","id":"1","result":{"n":"string"}}');
    server.says('{"jsonrpc":"2.0","id":1.0,"result":{"n":"float"}}');
    server.says('{"jsonrpc":"2.0","id":7,"result":{"n":"nothing"}}');
    server.says('{"jsonrpc":"2.0","id":1,"result":{"n":"right"}}');
    server.says('{"jsonrpc":"2.0","id":1,"result":{"n":"again"}}');
    expect(replyText(await call)).toEqual({ ok: true, result: '{"n":"right"}' });
    await settle();
    expect(server.closed).toBe(0);
  });

  it('fails a request not answered in time, naming it, and tells the server it was cancelled', async () => {
    vi.useFakeTimers();
    const connection = connect();
    const call = connection.request('tools/call', plain({ name: 'slow' }), 250, 'tools/call "slow"');
    const failed = expect(call).rejects.toThrow(new RequestTimedOut('server "notes" did not answer tools/call "slow" within 250 ms', 250));
    vi.advanceTimersByTime(249);
    expect(server.written).toHaveLength(1);
    vi.advanceTimersByTime(1);
    await failed;
    await expect(call).rejects.toBeInstanceOf(RequestTimedOut);
    expect(server.written[1]).toBe('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"timeout"}}');
    // Its late answer matches nothing.
    vi.useRealTimers();
    server.says('{"jsonrpc":"2.0","id":1,"result":{}}');
    await settle();
    expect(server.closed).toBe(0);
  });

  it('refuses a request past 256 in flight, at once and without writing it', async () => {
    const connection = connect();
    for (let i = 0; i < 256; i++) void connection.request('ping', undefined, 60_000, 'ping').catch(() => undefined);
    await expect(connection.request('ping', undefined, 60_000, 'ping')).rejects.toThrow(new UpstreamError('server "notes" has 256 requests in flight already'));
    expect(server.written).toHaveLength(256);
    // One answered makes room for one more.
    server.says('{"jsonrpc":"2.0","id":1,"result":{}}');
    await settle();
    void connection.request('ping', undefined, 60_000, 'ping').catch(() => undefined);
    expect(server.written).toHaveLength(257);
    await connection.close();
  });

  it('refuses a request, and drops a notification, once the server has left the bound unread', async () => {
    const connection = connect(undefined, 1000);
    server.queued = 999;
    void connection.request('ping', undefined, 60_000, 'ping').catch(() => undefined);
    connection.notify('notifications/initialized', undefined);
    expect(server.written).toHaveLength(2);
    server.queued = 1000;
    await expect(connection.request('ping', undefined, 60_000, 'ping')).rejects.toThrow(
      new UpstreamError('server "notes" has not read the last 1000 bytes the broker wrote to it'),
    );
    connection.notify('notifications/initialized', undefined);
    expect(server.written).toHaveLength(2);
    await connection.close();
  });

  it('writes a notification as a line with no id', () => {
    connect().notify('notifications/initialized', plain({ k: 1 }));
    expect(server.written).toEqual(['{"jsonrpc":"2.0","method":"notifications/initialized","params":{"k":1}}']);
  });
});

describe('when the server goes', () => {
  const failures = async (go: (connection: Connection) => void | Promise<void>) => {
    const connection = connect();
    const pending = connection.request('tools/list', plain({}), 60_000, 'tools/list').catch((err: unknown) => err);
    await go(connection);
    const inFlight = await pending;
    const later = await connection.request('ping', undefined, 60_000, 'ping').catch((err: unknown) => err);
    return { inFlight: inFlight as ServerGone, later: later as ServerGone };
  };

  it.each([
    ['exits', () => server.exits('exited with code 3'), 'server "notes" exited with code 3'],
    ['closes its output', () => server.stdout.end(), 'server "notes" closed its output'],
  ])('fails what is in flight and everything later when it %s', async (_, go, message) => {
    const { inFlight, later } = await failures(async () => {
      go();
      await settle();
    });
    expect(inFlight).toBeInstanceOf(ServerGone);
    expect([inFlight.message, inFlight.serverId, inFlight.dispatched, inFlight.closedByBroker]).toEqual([message, 'notes', true, false]);
    expect([later.message, later.dispatched, later.closedByBroker]).toEqual([message, false, false]);
  });

  it('says the broker closed it, and why, and closes the process', async () => {
    const { inFlight, later } = await failures((connection) => connection.close('after write_note drifted'));
    expect(inFlight.message).toBe('server "notes" was closed by the broker after write_note drifted');
    expect(later.message).toBe('server "notes" was closed by the broker after write_note drifted');
    expect([inFlight.closedByBroker, later.closedByBroker]).toEqual([true, true]);
    expect(server.closed).toBe(1);
    const plainClose = await failures((connection) => connection.close());
    expect(plainClose.later.message).toBe('server "notes" was closed by the broker');
  });

  it('keeps the first reason when it goes twice', async () => {
    const { later } = await failures(async () => {
      server.stdout.end();
      await settle();
      server.exits('exited with code 0');
      await settle();
    });
    expect(later.message).toBe('server "notes" closed its output');
  });

  it('does not call a server that went on its own closed by the broker when the broker closes it after', async () => {
    const { inFlight, later } = await failures(async (connection) => {
      server.exits('exited with code 0');
      await settle();
      await connection.close();
    });
    expect([inFlight.message, inFlight.closedByBroker, later.closedByBroker]).toEqual(['server "notes" exited with code 0', false, false]);
  });

  it('ends the session and stops the server on a line that is not a JSON-RPC message, and writes nothing more', async () => {
    const { inFlight } = await failures(async () => {
      server.says('{"jsonrpc":"2.0","id":1,"result":{},"result":{}}');
      await settle();
    });
    expect(inFlight.message).toBe('server "notes" sent a line that is not a valid JSON-RPC message: not valid JSON (duplicate key "result" at offset 36)');
    expect(server.closed).toBe(1);
    const writtenBefore = server.written.length;
    server.says('{"jsonrpc":"2.0","id":5,"method":"ping"}');
    await settle();
    expect(server.written).toHaveLength(writtenBefore);
  });
});

describe("the server's requests and notifications", () => {
  it('answers ping at once, and holds any other request until a handler is there (server-filesystem asks roots/list as soon as it is initialized)', async () => {
    const connection = connect();
    server.says('{"jsonrpc":"2.0","id":"p","method":"ping"}');
    server.says('{"jsonrpc":"2.0","id":9,"method":"roots/list"}');
    await settle();
    expect(server.written).toEqual(['{"jsonrpc":"2.0","id":"p","result":{}}']);
    connection.onRequest(async (method) => ({ ok: true, result: plain({ roots: [], asked: method }) }));
    await settle();
    expect(server.written).toEqual(['{"jsonrpc":"2.0","id":"p","result":{}}', '{"jsonrpc":"2.0","id":9,"result":{"roots":[],"asked":"roots/list"}}']);
  });

  it('refuses a held request past the count held, or once held for HOLD_MS, with an error answer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      connect();
      for (let id = 1; id <= MAX_HELD_REQUESTS + 1; id++) server.says(`{"jsonrpc":"2.0","id":${id},"method":"roots/list"}`);
      await settle();
      expect(server.written).toEqual([`{"jsonrpc":"2.0","id":${MAX_HELD_REQUESTS + 1},"error":{"code":-32000,"message":"the broker holds ${MAX_HELD_REQUESTS} requests already until the agent's session is open: roots/list is refused"}}`]);
      vi.advanceTimersByTime(HOLD_MS);
      await settle();
      expect(server.written).toHaveLength(MAX_HELD_REQUESTS + 1);
      expect(server.written.at(-1)).toBe(`{"jsonrpc":"2.0","id":${MAX_HELD_REQUESTS},"error":{"code":-32000,"message":"no agent session was open to answer roots/list within ${HOLD_MS} ms"}}`);
    } finally {
      vi.useRealTimers();
    }
  });

  it("answers the server's requests with the handler's reply, an internal error when it throws, and ping still itself", async () => {
    const connection = connect();
    const asked: string[] = [];
    connection.onRequest(async (method, params) => {
      asked.push(`${method} ${params === undefined ? '-' : writeJson(params)}`);
      if (method === 'roots/list') return { ok: true, result: plain({ roots: [] }) };
      if (method === 'elicitation/create') return { ok: false, error: plain({ code: -1, message: 'declined' }) as never };
      throw new Error('broken');
    });
    server.says('{"jsonrpc":"2.0","id":1,"method":"roots/list"}');
    server.says('{"jsonrpc":"2.0","id":2,"method":"elicitation/create","params":{"message":"?"}}');
    server.says('{"jsonrpc":"2.0","id":3,"method":"sampling/createMessage","params":{}}');
    server.says('{"jsonrpc":"2.0","id":4,"method":"ping"}');
    await settle();
    await settle();
    expect(asked).toEqual(['roots/list -', 'elicitation/create {"message":"?"}', 'sampling/createMessage {}']);
    expect(server.written.sort()).toEqual(
      [
        '{"jsonrpc":"2.0","id":1,"result":{"roots":[]}}',
        '{"jsonrpc":"2.0","id":2,"error":{"code":-1,"message":"declined"}}',
        '{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"Internal error"}}',
        '{"jsonrpc":"2.0","id":4,"result":{}}',
      ].sort(),
    );
  });

  it('writes no answer to a request the server made once the session has failed', async () => {
    const connection = connect();
    let answer!: (reply: Reply) => void;
    connection.onRequest(() => new Promise((resolve) => (answer = resolve)));
    server.says('{"jsonrpc":"2.0","id":1,"method":"roots/list"}');
    await settle();
    await connection.close();
    answer({ ok: true, result: plain({ roots: [] }) });
    await settle();
    expect(server.written).toEqual([]);
  });

  it('tells each listener of a method its notifications, and no one else', async () => {
    const connection = connect();
    const heard: string[] = [];
    connection.onNotification('notifications/tools/list_changed', (params) => heard.push(`a ${params === undefined ? '-' : writeJson(params)}`));
    connection.onNotification('notifications/tools/list_changed', () => heard.push('b'));
    connection.onNotification('notifications/message', () => heard.push('log'));
    server.says('{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}');
    server.says('{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}');
    server.says('{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{"k":1}}');
    await settle();
    expect(heard).toEqual(['a -', 'b', 'a {"k":1}', 'b']);
  });
});

describe('an answer the broker will not read', () => {
  const BOUND = 1024;
  const long = (id: string, where: 'start' | 'end') =>
    where === 'start' ? `{"jsonrpc":"2.0","id":${id},"result":{"text":"${'x'.repeat(2 * BOUND)}"}}` : `{"jsonrpc":"2.0","result":{"text":"${'x'.repeat(2 * BOUND)}"},"id":${id}}`;

  it('fails the request an over-long answer names at its start as soon as the bound is crossed, and the session goes on', async () => {
    const connection = connect(BOUND);
    const big = connection.request('tools/call', plain({}), 60_000, 'tools/call');
    const line = long('1', 'start');
    // Only the first part of the line: the request fails before the server ends it.
    server.says(line.slice(0, BOUND + 100), true);
    await expect(big).rejects.toThrow(new ResultTooLarge(`server "notes" answered with a message longer than ${BOUND} bytes`, BOUND));
    const next = connection.request('ping', undefined, 60_000, 'ping');
    server.says(`${line.slice(BOUND + 100)}`);
    server.says('{"jsonrpc":"2.0","id":2,"result":{}}');
    expect((await next).ok).toBe(true);
    expect(server.closed).toBe(0);
  });

  it('fails the request an over-long answer names at its end, once the line ends', async () => {
    const connection = connect(BOUND);
    const big = connection.request('tools/call', plain({}), 60_000, 'tools/call');
    server.says(long('1', 'end'));
    await expect(big).rejects.toBeInstanceOf(ResultTooLarge);
    expect(server.closed).toBe(0);
  });

  it.each([
    ['names no request', long('9', 'start')],
    ['names its request only as a string', long('"1"', 'start')],
    ['has its id inside, neither first nor last', `{"jsonrpc":"2.0","result":{"id":1,"text":"${'x'.repeat(2 * BOUND)}"},"more":0}`],
  ])('ends the session on an over-long line that %s', async (_, line) => {
    const connection = connect(BOUND);
    const pending = connection.request('tools/call', plain({}), 60_000, 'tools/call');
    server.says(line);
    await expect(pending).rejects.toThrow(`server "notes" sent a line longer than ${BOUND} bytes that answers no request`);
    expect(server.closed).toBe(1);
  });

  it('fails only its request for an answer past a limit of the JSON reader, placed by its id', async () => {
    const connection = connect();
    const deep = connection.request('tools/call', plain({}), 60_000, 'tools/call');
    server.says(`{"jsonrpc":"2.0","id":1,"result":${'['.repeat(70)}${']'.repeat(70)}}`);
    await expect(deep).rejects.toThrow(ResultOverLimit);
    await expect(deep).rejects.toThrow('server "notes" answered with a message the broker will not read: not valid JSON (nesting deeper than 64 at offset 96)');
    expect(server.closed).toBe(0);
  });
});
