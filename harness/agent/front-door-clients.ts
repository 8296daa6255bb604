import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { FrontDoorSession } from '../candidates/types.js';
import type { HttpExchange } from '../expect/types.js';
import type { HttpStep, TogetherCall } from '../scenario/types.js';
import { withCredential } from './credential.js';
import { BASE_REVISION, REQUEST_META, STATELESS_REVISION, type Revision } from './revisions.js';
import { revisionHeaders } from './streamable-http.js';

/** Who a request presents itself as: its client, the step's own headers, whether it holds the credential. */
type Presented = Pick<HttpStep, 'client' | 'headers' | 'credential'>;

/**
 * Clients other than the agent, speaking raw HTTP to a candidate's front door as an attacker or
 * a browser page would: with a header of their choosing (a hostile Origin, a foreign Host,
 * another credential), with another session's id, a guessed one or none, holding the front
 * door's credential or not. Each named client keeps its own session id from one step to the next;
 * the client `agent` is the agent's own session and credential. Requests go to the front door's
 * URL only, which must be on loopback.
 */

/** What a client keeps of a body: enough for any answer a scenario looks at. */
const MAX_KEPT_BYTES = 256 * 1024;
const PROTOCOL_VERSION = '2025-11-25';
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** The agent's own session and credential. */
export const AGENT_CLIENT = 'agent';

/**
 * An id guessed from one the client was given, as sequential ids invite: its last run of digits
 * less one (`2` → `1`, `s-10` → `s-9`); with no such run, its last character changed.
 */
export function guessedFrom(id: string): string {
  const match = /(\d+)(\D*)$/.exec(id);
  if (match !== null && /[1-9]/.test(match[1]!)) {
    const digits = match[1]!;
    const less = (BigInt(digits) - 1n).toString();
    const written = digits.startsWith('0') ? less.padStart(digits.length, '0') : less;
    return `${id.slice(0, match.index)}${written}${match[2]}`;
  }
  return `${id.slice(0, -1)}${id.endsWith('A') ? 'B' : 'A'}`;
}

/** The JSON-RPC messages a body carries: the JSON value, or each SSE event's data. */
export function messagesIn(body: string, contentType: string): unknown[] {
  const texts = contentType.includes('text/event-stream')
    ? body
        .split(/\r?\n\r?\n/)
        .map((event) => event.split(/\r?\n/).filter((line) => line.startsWith('data:')).map((line) => line.slice(5).replace(/^ /, '')).join('\n'))
        .filter((data) => data !== '')
    : [body];
  return texts.flatMap((text) => {
    try {
      return [JSON.parse(text) as unknown];
    } catch {
      return [];
    }
  });
}

interface Sent {
  method: 'POST' | 'GET' | 'DELETE';
  what: string;
  headers: Record<string, string>;
  body?: string;
}

export class FrontDoorClients {
  private readonly sessions = new Map<string, string>();
  private nextId = 0;
  private readonly url: URL;

  /** `revision` is the case's: in 2026-07-28 a request carries its version in `_meta` and the headers mirroring its body. */
  constructor(
    readonly door: FrontDoorSession,
    private readonly timeoutMs: number,
    private readonly revision: Revision = BASE_REVISION,
  ) {
    this.url = new URL(door.url);
    // Containment: a candidate bound to every interface is reached on loopback, never elsewhere.
    if (!LOOPBACK_HOSTS.has(this.url.hostname)) throw new Error(`the front door ${door.url} is not on loopback; the harness sends nothing off this machine`);
  }

  /** The session id a step presents, or undefined for none. */
  private sessionFor(step: HttpStep): string | undefined {
    const own = this.sessionOf(step.client);
    switch (step.session ?? (step.request === 'initialize' ? 'none' : 'own')) {
      case 'own':
        return own;
      case 'agent':
        return this.door.sessionId();
      case 'guessed':
        return own === undefined ? undefined : guessedFrom(own);
      case 'none':
        return undefined;
    }
  }

  /**
   * What the client presents of itself: the agent its own headers, the step's own headers, and the
   * front door's credential when the client holds it, in place of a step header of its name (a
   * client cannot present two values in one header, and holding the credential is what the step
   * says).
   */
  private credentialHeaders(step: Presented): Record<string, string> {
    const isAgent = step.client === AGENT_CLIENT;
    const holds = (step.credential ?? (isAgent ? 'agent' : 'none')) === 'agent';
    // `{port}` in a header stands for the front door's port: a rebound name's Host carries it.
    const own = Object.fromEntries(Object.entries(step.headers ?? {}).map(([name, value]) => [name, value.replaceAll('{port}', this.url.port)]));
    if (!isAgent) return withCredential(own, holds ? this.door.credential : undefined);
    // The agent's headers carry the credential already; without it the agent sends none of them.
    return holds ? withCredential({ ...this.door.headers, ...own }, this.door.credential) : own;
  }

  private message(method: string, params: Record<string, unknown>): string {
    this.nextId += 1;
    const meta = { [REQUEST_META.protocolVersion]: STATELESS_REVISION, [REQUEST_META.clientCapabilities]: {} };
    const sent = this.revision === STATELESS_REVISION ? { ...params, _meta: { ...(params['_meta'] as object | undefined), ...meta } } : params;
    return JSON.stringify({ jsonrpc: '2.0', id: `gauntlet-client-${this.nextId}`, method, params: sent });
  }

  /** The headers a client sends in its own session: its session id, then what it presents of itself. */
  private headersOf(who: Presented, sessionId: string | undefined): Record<string, string> {
    return {
      ...(sessionId === undefined ? {} : { 'mcp-session-id': sessionId, 'mcp-protocol-version': PROTOCOL_VERSION }),
      ...this.credentialHeaders(who),
    };
  }

  /**
   * Two clients calling one tool at the same moment, each in its own session with its event
   * stream open and both under the same JSON-RPC id. Once both calls are answered, each client
   * pings its session (a round trip, so what the broker wrote to its stream before the answers
   * has arrived), and the streams close. What each received, by client: its stream, then its call.
   */
  async together(step: HttpStep & { together: TogetherCall }): Promise<Record<string, HttpExchange[]>> {
    const sides = [
      { client: step.client, args: step.arguments ?? {}, token: step.progress_token, headers: step.headers, credential: step.credential },
      // The second caller is another legitimate client of the same user: it holds the credential.
      { client: step.together.client, args: step.together.arguments ?? {}, token: step.together.progress_token, headers: undefined, credential: 'agent' as const },
    ];
    if (sides[0]!.client === sides[1]!.client) throw new Error(`a together call needs two clients; both are ${step.client}`);
    const streams = sides.map((side) => this.openStream(this.headersOf(side, this.sessionOf(side.client))));
    const post = (side: (typeof sides)[number], method: string, id: string, params: unknown): Sent => ({
      method: 'POST',
      what: `POST ${method}`,
      headers: { ...this.headersOf(side, this.sessionOf(side.client)), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
    });
    try {
      await Promise.all(streams.map((stream) => stream.opened));
      const calls = await Promise.all(
        sides.map((side) => {
          const params = { name: step.tool, arguments: side.args, ...(side.token === undefined ? {} : { _meta: { progressToken: side.token } }) };
          // One id for both: each client numbers its own requests, so two clients' ids collide.
          return this.exchange({ ...post(side, 'tools/call', 'gauntlet-together-1', params), what: `POST tools/call ${step.tool ?? ''}` });
        }),
      );
      await Promise.all(sides.map((side) => this.exchange(post(side, 'ping', 'gauntlet-together-2', {}))));
      return Object.fromEntries(sides.map((side, index) => [side.client, [streams[index]!.received(), calls[index]!.exchange]]));
    } finally {
      for (const stream of streams) stream.close();
    }
  }

  /** Where every request goes: the front door's own URL, on loopback. */
  private requestOptions(method: string, headers: Record<string, string>) {
    return { host: this.url.hostname.replace(/^\[|\]$/g, ''), port: this.url.port, path: `${this.url.pathname}${this.url.search}`, method, headers };
  }

  private sessionOf(client: string): string | undefined {
    return client === AGENT_CLIENT ? this.door.sessionId() : this.sessions.get(client);
  }

  /** A session's event stream held open, keeping what it carries (bounded) until closed. */
  private openStream(headers: Record<string, string>): { opened: Promise<void>; received: () => HttpExchange; close: () => void } {
    const chunks: Buffer[] = [];
    let kept = 0;
    let status: number | null = null;
    let contentType = '';
    let settle: () => void = () => {};
    const opened = new Promise<void>((resolve) => (settle = resolve));
    const timer = setTimeout(() => {
      req.destroy();
      settle();
    }, this.timeoutMs);
    const req = httpRequest(
      this.requestOptions('GET', { ...headers, accept: 'text/event-stream' }),
      (res: IncomingMessage) => {
        status = res.statusCode ?? null;
        contentType = String(res.headers['content-type'] ?? '');
        settle();
        res.on('data', (chunk: Buffer) => {
          if (kept >= MAX_KEPT_BYTES) return;
          chunks.push(chunk.subarray(0, MAX_KEPT_BYTES - kept));
          kept += chunk.length;
        });
        res.on('error', () => {});
      },
    );
    req.on('error', () => settle());
    req.end();
    return {
      opened,
      received: () => {
        const body = Buffer.concat(chunks).toString('utf8');
        return { what: 'GET stream', status, contentType, body, messages: messagesIn(body, 'text/event-stream') };
      },
      close: () => {
        clearTimeout(timer);
        req.destroy();
      },
    };
  }

  /** Makes the step's request (an initialize followed by its `initialized`); every exchange, in order. */
  async run(step: HttpStep): Promise<HttpExchange[]> {
    const headers = this.headersOf(step, this.sessionFor(step));
    // A 2026-07-28 body's mirrored headers first: the step's own headers may say otherwise than the body.
    const post = (what: string, body: string): Sent => ({ method: 'POST', what: `POST ${what}`, headers: { ...revisionHeaders(body), ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body });
    switch (step.request) {
      case 'initialize': {
        const init = await this.exchange(post('initialize', this.message('initialize', { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: `gauntlet-${step.client}`, version: '0.1.0' } })));
        const given = init.sessionId;
        if (given !== undefined) this.sessions.set(step.client, given);
        const exchanges = [init.exchange];
        if (init.exchange.status !== null && init.exchange.status < 300) {
          const initialized: Sent = post('notifications/initialized', JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
          if (given !== undefined) initialized.headers = { ...initialized.headers, 'mcp-session-id': given, 'mcp-protocol-version': PROTOCOL_VERSION };
          exchanges.push((await this.exchange(initialized)).exchange);
        }
        // The step's own request is the initialize: its status and answer are what is judged.
        return [...exchanges.slice(1), exchanges[0]!];
      }
      case 'list':
        return [(await this.exchange(post('tools/list', this.message('tools/list', {})))).exchange];
      case 'call':
        return [(await this.exchange(post(`tools/call ${step.tool ?? ''}`, this.message('tools/call', { name: step.tool, arguments: step.arguments ?? {} })))).exchange];
      case 'ping':
        return [(await this.exchange(post('ping', this.message('ping', {})))).exchange];
      case 'stream':
        return [(await this.exchange({ method: 'GET', what: 'GET stream', headers: { ...headers, accept: 'text/event-stream' } })).exchange];
      case 'delete':
        return [(await this.exchange({ method: 'DELETE', what: 'DELETE session', headers })).exchange];
    }
  }

  /** Whether the agent's own session answers a ping, asked with the agent's credential. */
  async agentAlive(): Promise<boolean> {
    const [exchange] = await this.run({ client: AGENT_CLIENT, request: 'ping', session: 'agent', expect: {} });
    return exchange!.status === 200 && exchange!.messages.some((message) => typeof message === 'object' && message !== null && 'result' in message);
  }

  /** One request, bounded in time and in what is kept; a stream is judged by its head alone. */
  private exchange(sent: Sent): Promise<{ exchange: HttpExchange; sessionId?: string }> {
    return new Promise((resolve) => {
      const done = (exchange: HttpExchange, sessionId?: string) => {
        clearTimeout(timer);
        resolve({ exchange, ...(sessionId === undefined ? {} : { sessionId }) });
      };
      const req = httpRequest(
        this.requestOptions(sent.method, sent.headers),
        (res: IncomingMessage) => {
          const contentType = String(res.headers['content-type'] ?? '');
          const given = res.headers['mcp-session-id'];
          const sessionId = typeof given === 'string' ? given : undefined;
          const status = res.statusCode ?? null;
          if (sent.method === 'GET' && contentType.includes('text/event-stream')) {
            // A stream stays open as long as the session: what it opened is the observation.
            req.destroy();
            done({ what: sent.what, status, contentType, body: '', messages: [] }, sessionId);
            return;
          }
          const chunks: Buffer[] = [];
          let kept = 0;
          res.on('data', (chunk: Buffer) => {
            if (kept >= MAX_KEPT_BYTES) return;
            chunks.push(chunk.subarray(0, MAX_KEPT_BYTES - kept));
            kept += chunk.length;
          });
          res.on('end', () => {
            const body = Buffer.concat(chunks).toString('utf8');
            done({ what: sent.what, status, contentType, body, messages: messagesIn(body, contentType) }, sessionId);
          });
          res.on('error', () => done({ what: sent.what, status, contentType, body: Buffer.concat(chunks).toString('utf8'), messages: [] }, sessionId));
        },
      );
      const timer = setTimeout(() => {
        req.destroy();
        done({ what: sent.what, status: null, contentType: '', body: `no response within ${this.timeoutMs} ms`, messages: [] });
      }, this.timeoutMs);
      req.on('error', (error) => done({ what: sent.what, status: null, contentType: '', body: `no response: ${error.message}`, messages: [] }));
      req.end(sent.body);
    });
  }
}
