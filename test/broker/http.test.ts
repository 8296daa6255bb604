// The broker's HTTP client side (src/upstream/http.ts): redirects refused (or, when followed, at
// most five), bodies capped whether their size is announced or not, only the answer to the
// request accepted, an answer past the reader's limits failing only its request, the session
// kept; a timeout told to the server, each failure (an HTTP status, a body that is no message, a
// refused connection, a closed connection) named; and every address it connects to judged as it
// is dialled, whatever the name resolved to when the guard looked (DNS rebinding).

import type { IncomingMessage, ServerResponse } from 'node:http';
import { getDefaultAutoSelectFamily, setDefaultAutoSelectFamily } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RequestTimedOut, ResultOverLimit, ResultTooLarge, ServerGone } from '../../src/errors.js';
import { addressGuard, PRIVATE_ORIGIN_OPT_IN } from '../../src/guards/address.js';
import type { Resolved, Resolver } from '../../src/net/resolve.js';
import { HttpConnection, type Dialling } from '../../src/upstream/http.js';
import { writeJson } from '../../src/json/writer.js';
import { accepted, closeListeners, listen, stopListening } from './loopback-http.js';
import { collectGarbage } from '../collect-garbage.js';

afterEach(closeListeners);

const PLAN = { followRedirects: false, maxBodyBytes: 1024, bearer: undefined };
/** As without an address guard: the listeners here are on loopback. */
const ANYWHERE: Dialling = { refuse: () => null };
const answer = (body: string, result: unknown) => JSON.stringify({ jsonrpc: '2.0', id: (JSON.parse(body) as { id: number }).id, result });

describe('HttpConnection', () => {
  it('answers a request with the result in the body, and sends the session and version back', async () => {
    const headers: Array<[string | undefined, string | undefined]> = [];
    const url = await listen((request, body, response) => {
      headers.push([request.headers['mcp-session-id'] as string | undefined, request.headers['mcp-protocol-version'] as string | undefined]);
      response.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 's-1' }).end(answer(body, { protocolVersion: '2025-06-18' }));
    });
    const connection = new HttpConnection('notes', url, PLAN, ANYWHERE);
    const first = await connection.request('initialize', undefined, 5000, 'initialize');
    expect(first.ok).toBe(true);
    await connection.request('tools/list', undefined, 5000, 'tools/list');
    expect(headers).toEqual([
      [undefined, undefined],
      ['s-1', '2025-06-18'],
    ]);
  });

  it('refuses a redirect, and its target receives nothing', async () => {
    let reached = 0;
    const target = await listen((_request, _body, response) => {
      reached++;
      response.end();
    });
    const url = await listen((_request, _body, response) => response.writeHead(307, { location: target.href }).end());
    const connection = new HttpConnection('notes', url, PLAN, ANYWHERE);
    await expect(connection.request('tools/list', undefined, 5000, 'tools/list')).rejects.toThrow(/redirect \(HTTP 307\)/);
    expect(reached).toBe(0);
  });

  it('fails on an announced Content-Length past the cap without waiting for the body', async () => {
    // The body never arrives: only the header can end the read.
    const url = await listen((_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': 1_000_000 });
      response.write('{');
    });
    const connection = new HttpConnection('notes', url, PLAN, ANYWHERE);
    await expect(connection.request('tools/call', undefined, 5000, 'tools/call')).rejects.toBeInstanceOf(ResultTooLarge);
  });

  it('fails a streamed body once it passes the cap', async () => {
    const url = await listen((_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('x'.repeat(2048));
      // Never ended: the read must stop on the bytes already past the cap.
    });
    const connection = new HttpConnection('notes', url, PLAN, ANYWHERE);
    await expect(connection.request('tools/call', undefined, 5000, 'tools/call')).rejects.toBeInstanceOf(ResultTooLarge);
  });

  it('fails only the request whose answer is nested past the reader depth, and goes on', async () => {
    let calls = 0;
    const url = await listen((_request, body, response) => {
      calls++;
      const deep = JSON.parse(`${'['.repeat(70)}${']'.repeat(70)}`) as unknown;
      response.writeHead(200, { 'content-type': 'application/json' }).end(answer(body, calls === 1 ? { deep } : {}));
    });
    const connection = new HttpConnection('notes', url, PLAN, ANYWHERE);
    await expect(connection.request('tools/call', undefined, 5000, 'tools/call')).rejects.toBeInstanceOf(ResultOverLimit);
    expect((await connection.request('tools/call', undefined, 5000, 'tools/call')).ok).toBe(true);
  });

  it('takes only the answer to the request it sent', async () => {
    const url = await listen((_request, _body, response) => response.writeHead(200).end(JSON.stringify({ jsonrpc: '2.0', id: 99, result: {} })));
    const connection = new HttpConnection('notes', url, PLAN, ANYWHERE);
    await expect(connection.request('tools/list', undefined, 5000, 'tools/list')).rejects.toBeInstanceOf(ServerGone);
  });

  it('sends the planned token as a bearer header on every request, and none without one', async () => {
    const seen: Array<string | undefined> = [];
    const url = await listen((request, body, response) => {
      seen.push(request.headers.authorization);
      response.writeHead(200, { 'content-type': 'application/json' }).end(answer(body, {}));
    });
    await new HttpConnection('notes', url, { ...PLAN, bearer: 'tok-1' }, ANYWHERE).request('tools/list', undefined, 5000, 'tools/list');
    await new HttpConnection('notes', url, PLAN, ANYWHERE).request('tools/list', undefined, 5000, 'tools/list');
    expect(seen).toEqual(['Bearer tok-1', undefined]);
  });

  it('fails every request once closed', async () => {
    const url = await listen((_request, body, response) => response.writeHead(200).end(answer(body, {})));
    const connection = new HttpConnection('notes', url, PLAN, ANYWHERE);
    await connection.close();
    await expect(connection.request('tools/list', undefined, 5000, 'tools/list')).rejects.toThrow(/closed by the broker/);
    await expect(connection.request('tools/list', undefined, 5000, 'tools/list')).rejects.toMatchObject({ closedByBroker: true, dispatched: false });
  });

  it('says a request failed because the broker closed the connection only when it did', async () => {
    let arrived!: () => void;
    const received = new Promise<void>((resolve) => (arrived = resolve));
    // Never answered: the request is in flight when the broker closes the connection.
    const url = await listen(() => arrived());
    const connection = new HttpConnection('notes', url, PLAN, ANYWHERE);
    const pending = connection.request('tools/list', undefined, 5000, 'tools/list').catch((err: unknown) => err);
    await received;
    await connection.close();
    expect(await pending).toMatchObject({ closedByBroker: true, dispatched: true });
    const gone = await listen(ok);
    await stopListening(gone);
    await expect(new HttpConnection('notes', gone, PLAN, ANYWHERE).request('tools/list', undefined, 5000, 'tools/list')).rejects.toMatchObject({ closedByBroker: false });
  });
});

/** What a listener received: each body's method and id, and the params of each notification. */
const parsed = (body: string) => JSON.parse(body) as { id?: number; method: string; params?: unknown };

describe("HttpConnection's answers and failures, each named", () => {
  it('numbers its requests 1, 2, ... and takes a JSON-RPC error as the answer it is', async () => {
    const ids: Array<number | undefined> = [];
    const url = await listen((_request, body, response) => {
      ids.push(parsed(body).id);
      const error = { code: -32000, message: 'the note is locked' };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: parsed(body).id, ...(ids.length === 1 ? { result: {} } : { error }) }));
    });
    const connection = new HttpConnection('notes', url, PLAN, ANYWHERE);
    expect((await connection.request('tools/list', undefined, 5000, 'tools/list')).ok).toBe(true);
    const failed = await connection.request('tools/call', undefined, 5000, 'tools/call');
    expect(failed.ok).toBe(false);
    expect(failed.ok ? undefined : writeJson(failed.error)).toBe('{"code":-32000,"message":"the note is locked"}');
    expect(ids).toEqual([1, 2]);
  });

  it('gives up on a request at its timeout, and tells the server it gave up', async () => {
    const notices: unknown[] = [];
    const url = await listen((_request, body, response) => {
      // The request is never answered; the notice of its cancellation is accepted.
      if (parsed(body).method === 'notifications/cancelled') {
        notices.push(parsed(body).params);
        response.writeHead(202).end();
      }
    });
    const connection = new HttpConnection('notes', url, PLAN, ANYWHERE);
    const asked = connection.request('tools/call', undefined, 100, 'tools/call "search_notes"');
    await expect(asked).rejects.toBeInstanceOf(RequestTimedOut);
    await expect(asked).rejects.toThrow(/^server "notes" did not answer tools\/call "search_notes" within 100 ms$/);
    await expect.poll(() => notices).toEqual([{ requestId: 1, reason: 'timeout' }]);
    await connection.close();
  });

  it('gives up at its timeout even when a garbage collection runs while it waits (nodejs/node#57736)', async () => {
    let arrived!: () => void;
    const received = new Promise<void>((resolve) => (arrived = resolve));
    // The request is never answered.
    const url = await listen(() => arrived());
    const connection = new HttpConnection('notes', url, PLAN, ANYWHERE);
    const asked = connection.request('tools/call', undefined, 200, 'tools/call "search_notes"');
    await received;
    collectGarbage();
    await expect(asked).rejects.toBeInstanceOf(RequestTimedOut);
    await connection.close();
  });

  it.each([
    [404, 'answered tools/list with HTTP 404'],
    [500, 'answered tools/list with HTTP 500'],
    [400, 'answered tools/list with HTTP 400'],
    [300, 'answered tools/list with a redirect (HTTP 300), which is not followed'],
  ])('fails on HTTP %d, saying so', async (status, problem) => {
    const url = await listen((_request, body, response) => response.writeHead(status, { 'content-type': 'application/json' }).end(answer(body, {})));
    const asked = new HttpConnection('notes', url, PLAN, ANYWHERE).request('tools/list', undefined, 5000, 'tools/list');
    await expect(asked).rejects.toBeInstanceOf(ServerGone);
    await expect(asked).rejects.toThrow(`server "notes" ${problem}`);
  });

  it('takes any 2xx answer, 299 included', async () => {
    const url = await listen((_request, body, response) => response.writeHead(299, { 'content-type': 'application/json' }).end(answer(body, { fine: true })));
    const reply = await new HttpConnection('notes', url, PLAN, ANYWHERE).request('tools/list', undefined, 5000, 'tools/list');
    expect(reply.ok ? writeJson(reply.result) : undefined).toBe('{"fine":true}');
  });

  it(`follows at most ${5} redirects when it follows them at all`, async () => {
    let hops = 0;
    const url = await listen((_request, _body, response) => {
      hops++;
      response.writeHead(307, { location: '/mcp' }).end();
    });
    const asked = new HttpConnection('notes', url, { ...PLAN, followRedirects: true }, ANYWHERE).request('tools/list', undefined, 5000, 'tools/list');
    await expect(asked).rejects.toThrow('server "notes" answered tools/list with more than 5 redirects');
    // The first request and the five redirects it followed.
    expect(hops).toBe(6);
    const nowhere = await listen((_request, _body, response) => response.writeHead(307).end());
    await expect(new HttpConnection('notes', nowhere, { ...PLAN, followRedirects: true }, ANYWHERE).request('tools/list', undefined, 5000, 'tools/list')).rejects.toThrow(
      'server "notes" answered tools/list with a redirect (HTTP 307), which is not followed',
    );
  });

  it('fails on a body that is no JSON-RPC message, naming the problem', async () => {
    const url = await listen((_request, _body, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('not json'));
    const asked = new HttpConnection('notes', url, PLAN, ANYWHERE).request('tools/list', undefined, 5000, 'tools/list');
    await expect(asked).rejects.toThrow(/^server "notes" answered tools\/list with a body that is not a JSON-RPC message: .+/);
  });

  it('reads a body of exactly its cap, announced or not', async () => {
    const exact = (body: string) => {
      const text = answer(body, {});
      return text.slice(0, -1) + ' '.repeat(PLAN.maxBodyBytes - text.length) + '}';
    };
    const announced = await listen((_request, body, response) => {
      const text = exact(body);
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
    });
    const streamed = await listen((_request, body, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(exact(body));
    });
    for (const url of [announced, streamed]) expect((await new HttpConnection('notes', url, PLAN, ANYWHERE).request('tools/list', undefined, 5000, 'tools/list')).ok).toBe(true);
  });

  it('says why a server could not be asked when nothing listens', async () => {
    const url = await listen(ok);
    await stopListening(url);
    const asked = new HttpConnection('notes', url, PLAN, ANYWHERE).request('tools/list', undefined, 5000, 'tools/list');
    await expect(asked).rejects.toBeInstanceOf(ServerGone);
    await expect(asked).rejects.toThrow(/^server "notes" could not be asked tools\/list: connect ECONNREFUSED 127\.0\.0\.1:\d+$/);
  });

  it('sends a notification and no more once closed, and says why it was closed', async () => {
    const methods: string[] = [];
    const url = await listen((request, body, response) => {
      // Once initialized the broker also asks for the stream outside any call: this server has none.
      if (request.method === 'GET') return void response.writeHead(405).end();
      methods.push(parsed(body).method);
      response.writeHead(202).end();
    });
    const connection = new HttpConnection('notes', url, PLAN, ANYWHERE);
    connection.notify('notifications/initialized', undefined);
    await expect.poll(() => methods).toEqual(['notifications/initialized']);
    await connection.close('after its tools changed');
    connection.notify('notifications/initialized', undefined);
    await expect(connection.request('tools/list', undefined, 5000, 'tools/list')).rejects.toThrow('server "notes" was closed by the broker after its tools changed');
    expect(methods).toEqual(['notifications/initialized']);
  });
});

/** A resolver that gives each answer in turn, the last one from then on, and counts the lookups. */
function resolverOf(...answers: string[][]): Resolver & { calls: number } {
  const resolver = Object.assign(
    (_name: string): Promise<readonly Resolved[]> => {
      const answer = answers[Math.min(resolver.calls++, answers.length - 1)]!;
      return Promise.resolve(answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
    },
    { calls: 0 },
  );
  return resolver;
}

/** The address guard's dial-time judgement, as the broker's startup wires it. */
const guarded = (env: NodeJS.ProcessEnv, resolve?: Resolver): Dialling => ({
  refuse: (url, address) => addressGuard.refuseDial(url, address, env),
  ...(resolve === undefined ? {} : { resolve }),
});

const ok = (_request: IncomingMessage, body: string, response: ServerResponse) =>
  response.writeHead(200, { 'content-type': 'application/json' }).end(answer(body, {}));

/** The listener's URL under a public-looking name, which only the test's resolver knows. */
const named = (url: URL) => new URL(`http://mcp.example.com:${url.port}/mcp`);

describe('HttpConnection dials only what the address judgement passes', () => {
  it('never connects when the name resolves to loopback at the dial after a public address at the check (DNS rebinding)', async () => {
    const listener = await listen(ok);
    const url = named(listener);
    const resolve = resolverOf(['93.184.216.34'], ['127.0.0.1']);
    expect(await addressGuard.refuse(url, {}, resolve)).toBeNull();
    const connection = new HttpConnection('notes', url, PLAN, guarded({}, resolve));
    const failed = connection.request('initialize', undefined, 5000, 'initialize');
    await expect(failed).rejects.toBeInstanceOf(ServerGone);
    await expect(failed).rejects.toThrow('server "notes" was not dialled at 127.0.0.1: "mcp.example.com" resolves to it: 127.0.0.1 is loopback');
    expect(resolve.calls).toBe(2);
    expect(accepted.get(listener.port) ?? 0).toBe(0);
  });

  it('refuses the whole answer when any address in it is refused', async () => {
    const listener = await listen(ok);
    const connection = new HttpConnection('notes', named(listener), PLAN, guarded({}, resolverOf(['93.184.216.34', '127.0.0.1'])));
    await expect(connection.request('tools/list', undefined, 5000, 'tools/list')).rejects.toThrow(/not dialled at 127\.0\.0\.1/);
    expect(accepted.get(listener.port) ?? 0).toBe(0);
  });

  it('judges an IP literal, which Node dials without a lookup', async () => {
    const listener = await listen(ok);
    const connection = new HttpConnection('notes', listener, PLAN, guarded({}));
    await expect(connection.request('tools/list', undefined, 5000, 'tools/list')).rejects.toThrow(/not dialled at 127\.0\.0\.1: 127\.0\.0\.1 is loopback/);
    expect(accepted.get(listener.port) ?? 0).toBe(0);
  });

  // Node asks its lookup for every address when it races the families (the default), for one otherwise.
  it.each([true, false])('reaches a name resolving to an address the opt-in covers (family racing %s)', async (racing) => {
    const before = getDefaultAutoSelectFamily();
    setDefaultAutoSelectFamily(racing);
    try {
      const listener = await listen(ok);
      const url = named(listener);
      const resolve = resolverOf(['127.0.0.1']);
      const connection = new HttpConnection('notes', url, PLAN, guarded({ [PRIVATE_ORIGIN_OPT_IN]: url.origin }, resolve));
      expect((await connection.request('tools/list', undefined, 5000, 'tools/list')).ok).toBe(true);
      expect(accepted.get(listener.port)).toBe(1);
      expect(resolve.calls).toBe(1);
      await connection.close();
    } finally {
      setDefaultAutoSelectFamily(before);
    }
  });

  it('judges a followed redirect by its own origin, and carries the token to none', async () => {
    const seen: Array<string | undefined> = [];
    const target = await listen((request, body, response) => {
      seen.push(request.headers.authorization);
      ok(request, body, response);
    });
    const url = await listen((_request, _body, response) => response.writeHead(307, { location: target.href }).end());
    const following = { ...PLAN, followRedirects: true, bearer: 'tok-1' };
    // The opt-in covers the server's origin, not the port the redirect points at.
    const judged = new HttpConnection('notes', url, following, guarded({ [PRIVATE_ORIGIN_OPT_IN]: url.origin }));
    await expect(judged.request('tools/list', undefined, 5000, 'tools/list')).rejects.toThrow(/not dialled at 127\.0\.0\.1/);
    expect(accepted.get(target.port) ?? 0).toBe(0);
    expect((await new HttpConnection('notes', url, following, ANYWHERE).request('tools/list', undefined, 5000, 'tools/list')).ok).toBe(true);
    expect(seen).toEqual([undefined]);
  });
});
