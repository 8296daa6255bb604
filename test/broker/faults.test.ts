// The broker under peers that misbehave without breaking the protocol: a server that stops reading
// its stdin, an agent that stops reading its answers, a server that floods list_changed notices
// or lists slowly. What the broker holds for each is bounded, and no call waits past its timeout.

import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ALL_GUARDS, selectGuards, type Guards } from '../../src/guards/registry.js';
import { DEFAULT_LIMITS } from '../../src/operator/config.js';
import { plain } from '../../src/json/tree.js';
import { rediscover } from '../../src/load/drift.js';
import { decideTools } from '../../src/load/load.js';
import { Session, TOOLS_CHANGED, runSession } from '../../src/session/session.js';
import { Connection, type Reply } from '../../src/upstream/connection.js';
import { ServerProcess } from '../../src/upstream/process.js';
import type { JsonValue } from '../../src/types.js';
import { config, context, initialized, manifestOf, rule, tool } from './builders.js';
import { FakeRequester } from './fake-requester.js';

const reviewed = [tool('search_notes')];
const CONFIG = config({ search_notes: rule('read_only') });
const MANIFEST = manifestOf(reviewed);
const REGISTERED = decideTools(reviewed, MANIFEST, CONFIG, ALL_GUARDS).registered;
/** The reviewed listing, as the server gives it again. */
const LISTING = '{"tools":[{"name":"search_notes","description":"search_notes does things","inputSchema":{"type":"object"}}]}';
const CALL = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"search_notes","arguments":{}}}`;

describe('a server that stops reading its stdin', () => {
  it('has calls refused at once past the bound, holding no more than the bound and one request', async () => {
    // A process that never reads its stdin: everything written past its pipe waits in the broker.
    const spec = { id: 'deaf', command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], env: new Map(), prefix: undefined, sourceVersion: undefined };
    const server = await ServerProcess.start(spec, ALL_GUARDS.process);
    const bound = 1024 * 1024;
    const connection = new Connection('deaf', server, undefined, bound);
    const padding = 'x'.repeat(64 * 1024);
    const outcomes: Array<Promise<string>> = [];
    try {
      for (let i = 0; i < 200; i++) {
        const sent = connection.request('tools/call', plain({ name: 'search_notes', arguments: { query: padding } }), 60_000, 'tools/call "search_notes"');
        outcomes.push(sent.then(() => 'answered', (err: Error) => err.message));
      }
      const started = Date.now();
      // Every call past the bound is refused without waiting for any timeout.
      const refused = await Promise.all(outcomes.slice(-100));
      expect(Date.now() - started).toBeLessThan(1000);
      expect(new Set(refused)).toEqual(new Set([expect.stringMatching(/^server "deaf" has not read the last \d+ bytes the broker wrote to it$/)]));
      expect(server.queuedBytes()).toBeLessThan(bound + padding.length + 1024);
    } finally {
      await connection.close();
    }
    // The calls that were queued fail once the server is gone; none is left waiting.
    expect((await Promise.all(outcomes)).filter((outcome) => outcome === 'answered')).toEqual([]);
  });

  it('without server-queue-bound, holds everything written to it', async () => {
    const spec = { id: 'deaf', command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], env: new Map(), prefix: undefined, sourceVersion: undefined };
    const server = await ServerProcess.start(spec, ALL_GUARDS.process);
    const connection = new Connection('deaf', server);
    const padding = 'x'.repeat(64 * 1024);
    const outcomes: Array<Promise<unknown>> = [];
    try {
      for (let i = 0; i < 100; i++) outcomes.push(connection.request('tools/call', plain({ name: 'n', arguments: { query: padding } }), 60_000, 'call').catch(() => undefined));
      expect(server.queuedBytes()).toBeGreaterThan(4 * 1024 * 1024);
    } finally {
      await connection.close();
    }
    await Promise.all(outcomes);
  });
});

/** The session run in front of an agent reading `output`, holding at most `bound` unread bytes for it. */
const servedTo = (input: PassThrough, output: Writable, bound: number) =>
  runSession(input, output, {
    tools: REGISTERED,
    guards: ALL_GUARDS,
    context: context(),
    limits: DEFAULT_LIMITS,
    serverEnv: new Map(),
    upstream: new FakeRequester(() => '{"content":[]}'),
    audit: undefined,
    stopServer: async () => undefined,
    maxUnreadBytes: bound,
  });

describe('an agent that stops reading its answers', () => {
  it('is no longer read once the answers waiting for it pass the bound (backpressure)', async () => {
    const BOUND = 64 * 1024;
    const input = new PassThrough();
    // Takes nothing: every answer stays queued in the stream, as for an agent that never reads.
    const output = new Writable({ highWaterMark: 16 * 1024, write: () => undefined });
    const session = servedTo(input, output, BOUND);
    input.write('{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}\n');
    const request = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n';
    // Far more answers than the bound: about 2 MiB of them, were they all written.
    const batch = request.repeat(100);
    for (let i = 0; i < 100; i++) input.write(batch);
    await new Promise((resolve) => setImmediate(resolve));
    expect(input.isPaused()).toBe(true);
    // The bound, and at most the answers to the one batch read before the pause.
    expect(output.writableLength).toBeGreaterThanOrEqual(BOUND);
    expect(output.writableLength).toBeLessThan(BOUND + 100 * 300);
    expect(input.readableLength).toBeGreaterThan(0);
    output.destroy(new Error('the agent went away'));
    await session;
  });

  it('is read again once it has read what was waiting, and every request it sent is answered', async () => {
    const BOUND = 64 * 1024;
    const input = new PassThrough();
    let agentReads = false;
    let answers = 0;
    let taking: (() => void) | undefined;
    // Takes one write at a time, and only while the agent reads; the answers it took are counted.
    const output = new Writable({
      highWaterMark: 16 * 1024,
      write: (chunk: Buffer, _encoding, done) => {
        answers += chunk.toString('utf8').split('\n').length - 1;
        if (agentReads) done();
        else taking = done;
      },
    });
    const session = servedTo(input, output, BOUND);
    input.write('{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}\n');
    const batch = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n'.repeat(100);
    for (let i = 0; i < 100; i++) input.write(batch);
    await new Promise((resolve) => setImmediate(resolve));
    expect(input.isPaused()).toBe(true);
    expect(answers).toBeLessThan(10_001);
    // The agent reads from now on.
    agentReads = true;
    taking?.();
    await expect.poll(() => answers, { timeout: 20_000 }).toBe(10_001);
    expect(input.isPaused()).toBe(false);
    input.end();
    await session;
  });
});

/** A server whose listings answer only when the test lets them; it answers calls at once. */
class SlowLister extends FakeRequester {
  readonly waiting: Array<() => void> = [];
  /** Listings asked for, answered or not. */
  listings = 0;

  constructor() {
    super((method) => (method === 'tools/list' ? LISTING : '{"content":[]}'));
  }

  override request(method: string, params: JsonValue | undefined, timeoutMs: number): Promise<Reply> {
    if (method !== 'tools/list') return super.request(method, params, timeoutMs);
    this.listings += 1;
    return new Promise((resolve) => this.waiting.push(() => resolve(super.request(method, params, timeoutMs))));
  }

  /** Answers every listing asked for so far. */
  answerListings(): void {
    for (const answer of this.waiting.splice(0)) answer();
  }
}

function flooded(guards: Guards, callTimeoutMs = 10_000) {
  const upstream = new SlowLister();
  const own = config({ search_notes: rule('read_only', { callTimeoutMs }) });
  const sent: string[] = [];
  const s = new Session({
    tools: decideTools(reviewed, MANIFEST, own, ALL_GUARDS).registered,
    guards,
    context: context(),
    limits: DEFAULT_LIMITS,
    serverEnv: new Map(),
    upstream,
    audit: undefined,
    send: (line) => sent.push(line),
    rediscovery: { rediscover: () => rediscover(upstream, CONFIG, MANIFEST, guards, REGISTERED), closeUpstream: async () => undefined },
  });
  initialized(s, sent);
  const listings = () => upstream.listings;
  const calls = () => upstream.asked.filter((a) => a.method === 'tools/call').length;
  return { s, upstream, sent, listings, calls };
}

describe('a flood of list_changed notices', () => {
  it('costs at most one rediscovery after the one running, however many notices come', async () => {
    const { s, upstream, sent, listings, calls } = flooded(ALL_GUARDS);
    for (let i = 0; i < 10_000; i++) upstream.serverNotifies(TOOLS_CHANGED);
    s.handleLine(CALL(1));
    await new Promise((resolve) => setImmediate(resolve));
    expect(listings()).toBe(1);
    // More notices while that listing runs: one more rediscovery, queued behind it.
    for (let i = 0; i < 10_000; i++) upstream.serverNotifies(TOOLS_CHANGED);
    upstream.answerListings();
    await new Promise((resolve) => setImmediate(resolve));
    expect(listings()).toBe(2);
    upstream.answerListings();
    await s.settled();
    expect(listings()).toBe(2);
    expect(calls()).toBe(1);
    expect(JSON.parse(sent.at(-1)!).result.isError).toBeUndefined();
  });

  it('without rediscovery-bounded, queues one rediscovery per notice', async () => {
    const { s, upstream, listings } = flooded(selectGuards(['rediscovery-bounded']));
    for (let i = 0; i < 50; i++) upstream.serverNotifies(TOOLS_CHANGED);
    for (let i = 0; i < 50; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      upstream.answerListings();
    }
    await s.settled();
    expect(listings()).toBe(50);
  });

  it('never holds a call past its own timeout: a listing still running refuses it tool_timeout, unforwarded', async () => {
    const { s, upstream, sent, calls } = flooded(ALL_GUARDS, 200);
    upstream.serverNotifies(TOOLS_CHANGED);
    const started = Date.now();
    s.handleLine(CALL(1));
    await s.settled();
    expect(Date.now() - started).toBeLessThan(2000);
    const { result } = JSON.parse(sent.at(-1)!);
    expect(result.structuredContent).toEqual({ code: 'tool_timeout', timeout_ms: 200 });
    expect(result.content[0].text).toContain("the server's tools were still being decided again after 200 ms, so search_notes was not sent.");
    expect(calls()).toBe(0);
    upstream.answerListings();
  });

  it('takes the time a call waited for the rediscovery from the timeout it is forwarded with', async () => {
    const { s, upstream, calls } = flooded(ALL_GUARDS, 5000);
    upstream.serverNotifies(TOOLS_CHANGED);
    s.handleLine(CALL(1));
    // The listing takes 50 ms or more: a call waits for it.
    await new Promise((resolve) => setTimeout(resolve, 50));
    upstream.answerListings();
    await s.settled();
    expect(calls()).toBe(1);
    const forwarded = upstream.asked.find((asked) => asked.method === 'tools/call')!;
    expect(forwarded.timeoutMs).toBeLessThanOrEqual(5000 - 40);
    expect(forwarded.timeoutMs).toBeGreaterThan(1000);
  });
});
