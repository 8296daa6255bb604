/**
 * The kit over MCP's Streamable HTTP transport: a listener (on 127.0.0.1, or on each of the
 * addresses the harness's network enclosure holds, all on one port) in front of the same serve()
 * the stdio mode runs. Each POST body is one line into serve(); the reply serve() sends to it
 * (matched by the raw text of its id) is the response body, as application/json, handed over as
 * serve() wrote it: never read back, so a reply of any size is answered, and one in pieces is
 * streamed, never held whole. Every TCP connection is recorded before anything is read, so the
 * ledger shows whether a client dialled at all, and at which address, and every request with the
 * headers it came with. Three knobs misbehave at the HTTP level: a redirect to the canary, one to
 * another of its own listeners, and a body past any cap; two more serve HTTPS (`http_tls`, with
 * the certificate in servers/kit/tls/) and quote each call's request headers in its result
 * (`http_echo_headers`), as a careless server echoing its request would; and one closes every
 * connection after its response (`http_close_connections`), so each request is dialled anew.
 * With `http_sse` every request is answered as the transport also allows, on an event stream: a
 * priming event at once, then whatever the server sends of its own while the request is pending
 * (notifications, requests: `notify.*`, `ask.*`), then the answer; or, for a call (`endless`), log
 * lines for as long as the client reads and never the answer. With `http_oauth` the server signs
 * nobody in: it refuses every uncredentialed MCP request and describes a sign-in (servers/kit/oauth.ts).
 * In 2026-07-28 (knob `revisions`) there is no session and no GET stream: a POST is served only when
 * its mirrored headers say what its body says (servers/kit/request-headers.ts), GET and DELETE get
 * 405, and a refusal gets the revision's status (404 for an unknown method, 400 for the others).
 */
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isIPv6 } from 'node:net';
import { PassThrough } from 'node:stream';
import { errorText, isRecord, METHOD_NOT_FOUND, rawMemberText } from './jsonrpc.js';
import { annotatedPaths, decoded, HEADER_MISMATCH, headerMismatch, mirroredHeaders, paramHeaderStates } from './request-headers.js';
import { CANARY } from './payloads.js';
import { presetSchema } from './schemas.js';
import { HANDSHAKE, metaOf, STATELESS, UNSUPPORTED_PROTOCOL_VERSION } from './revision.js';
import type { Knobs } from './knobs.js';
import { answerOauth } from './oauth.js';
import { type SentLine, serve, type ServerSetup, type StopReason } from './server.js';
import { streamPieces } from './wire.js';
import type { Pieces, RawText } from './json-text.js';
import { text } from 'node:stream/consumers';

/** Bigger than any cap a broker may set on a body (16 MiB), by 1 MiB. */
const OVERSIZE_BYTES = 17 * 1024 * 1024;
/** One ASCII piece of the oversized text: its length in characters is its length in bytes. */
const CHUNK = 'a'.repeat(64 * 1024);

/** What a POST body says about itself, read only to route it. */
interface Routing {
  /**
   * The id's raw JSON text, as serve() reads it and echoes it in its reply; undefined for a
   * notification (or a body that is not a JSON object).
   */
  key: string | undefined;
  method: unknown;
  params: unknown;
  /** The revision its `_meta` names (2026-07-28), or undefined. */
  version: unknown;
}

function routing(body: string): Routing {
  let message: unknown;
  try {
    message = JSON.parse(body);
  } catch {
    return { key: undefined, method: undefined, params: undefined, version: undefined };
  }
  if (!isRecord(message)) return { key: undefined, method: undefined, params: undefined, version: undefined };
  const params = message['params'];
  return { key: rawMemberText(body, 'id') ?? undefined, method: message['method'], params, version: metaOf(params)['io.modelcontextprotocol/protocolVersion'] };
}

/**
 * Whether a request is from a 2026-07-28 client, by its headers (a GET has no body): to a server
 * that speaks only 2026-07-28, any; to one that speaks both, one whose `MCP-Protocol-Version` says so.
 */
function statelessClient(knobs: Knobs, headers: Readonly<Record<string, string>>): boolean {
  return knobs.revisions.includes(STATELESS) && (!knobs.revisions.includes(HANDSHAKE) || headers['mcp-protocol-version'] === STATELESS);
}

/**
 * The status of a 2026-07-28 reply: streamable-http, "If the server does not implement the
 * requested RPC method, it **MUST** respond with `404 Not Found`", and UnsupportedProtocolVersion,
 * HeaderMismatch and MissingRequiredClientCapability are each "For HTTP, ... `400 Bad Request`".
 */
function statelessStatus(reply: RawText): number {
  if (typeof reply !== 'string') return 200;
  const code = /^\{"jsonrpc":"2\.0","id":[^]*?,"error":\{"code":(-?\d+)/.exec(reply)?.[1];
  if (code === String(METHOD_NOT_FOUND)) return 404;
  return code === String(UNSUPPORTED_PROTOCOL_VERSION) || code === String(HEADER_MISMATCH) || code === '-32021' ? 400 : 200;
}

/** A tools/call result whose text alone is past OVERSIZE_BYTES, streamed without ever being held whole. */
async function sendOversized(response: ServerResponse, key: string, announced: boolean): Promise<void> {
  const head = `{"jsonrpc":"2.0","id":${key},"result":{"content":[{"type":"text","text":"`;
  const tail = '"}]}}';
  const chunks = Math.ceil(OVERSIZE_BYTES / CHUNK.length);
  const length = Buffer.byteLength(head) + chunks * CHUNK.length + tail.length;
  response.writeHead(200, { 'content-type': 'application/json', ...(announced ? { 'content-length': length } : {}) });
  const body = function* (): Iterable<string> {
    yield head;
    for (let sent = 0; sent < chunks; sent++) yield CHUNK;
    yield tail;
  };
  // Stops as soon as the client gives up reading.
  if (await streamPieces(response, body)) response.end();
}

/** One event carrying `line` as its data: serve() writes a line with no newline in it. */
function sseEvent(line: RawText): Pieces {
  return function* () {
    yield 'data: ';
    yield* typeof line === 'string' ? [line] : line();
    yield '\n\n';
  };
}

/** The log line an endless stream repeats. */
const STILL_WORKING = [...sseEvent('{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"notes","data":"still working"}}')()].join('');

/**
 * Opens the event stream a request is answered on, with the priming event the transport asks
 * for (an id and empty data): answered before serve() has the request, so that what serve()
 * sends while it is pending has a stream to go on.
 */
function openStream(response: ServerResponse, eventId: number): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  response.write(`id: ${eventId}\ndata:\n\n`);
}

/** Log lines for as long as the client reads: a call's stream that never carries its answer. */
async function sendEndless(response: ServerResponse): Promise<void> {
  await streamPieces(response, function* () {
    for (;;) yield STILL_WORKING;
  });
}

/** servers/kit/tls, found by walking up: the kit runs compiled from dist/ and from sources alike. */
function tlsDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'servers', 'kit', 'tls');
    if (existsSync(join(candidate, 'server.pem'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('http_tls: no servers/kit/tls/server.pem above the kit');
    dir = parent;
  }
}

/** The headers a request came with, names in lower case and repeats joined, as the ledger keeps them. */
function headersOf(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** A tools/call answer with one more text block quoting the request's headers; any other as it was. */
function withHeadersEchoed(text: string, headers: Record<string, string>): string {
  try {
    const message = JSON.parse(text) as { result?: { content?: unknown[] } };
    if (!Array.isArray(message.result?.content)) return text;
    const quoted = Object.entries(headers).map(([name, value]) => `${name}: ${value}`).join('\n');
    message.result.content.push({ type: 'text', text: `Request headers received:\n${quoted}` });
    return JSON.stringify(message);
  } catch {
    return text;
  }
}

/**
 * A reply as serve() wrote it, its length announced; with `echoed`, a call's result quoting those
 * headers (the echo rewrites the reply, so a reply in pieces is then joined first).
 */
async function sendReply(response: ServerResponse, { line, bytes }: SentLine, echoed: Record<string, string> | null, onStream: boolean, status: number): Promise<void> {
  if (echoed !== null || typeof line === 'string') {
    const text = typeof line === 'string' ? line : [...line()].join('');
    const body = echoed === null ? text : withHeadersEchoed(text, echoed);
    if (onStream) response.end([...sseEvent(body)()].join(''));
    else response.writeHead(status, { 'content-type': 'application/json' }).end(body);
    return;
  }
  if (onStream) {
    if (await streamPieces(response, sseEvent(line))) response.end();
    return;
  }
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': bytes });
  if (await streamPieces(response, line)) response.end();
}

/**
 * Where a tools/call that reached the server at `local` is redirected, or null to serve it: to the
 * canary (`http_redirect_calls`, which serves plain HTTP), or to the listener `http_redirect_to`
 * names, on this server's own port and scheme, from any other address; a call reaching that
 * listener is served, so a client that follows the redirect is answered there. Over TLS that hop
 * stays on https: a downgrade to http would let a rule against plain http refuse it, in place of
 * not following redirects.
 */
function redirectLocation(knobs: Knobs, port: number, local: string | undefined): string | null {
  if (knobs.httpRedirectCalls) return `http://127.0.0.1:${knobs.canaryPort}/mcp`;
  const target = knobs.httpRedirectTo;
  if (target === null || local === target) return null;
  return `${knobs.httpTls ? 'https' : 'http'}://${isIPv6(target) ? `[${target}]` : target}:${port}/mcp`;
}

/**
 * For a 2026-07-28 call of a tool whose input schema (a `schema.<tool>` preset) annotates arguments
 * with `x-mcp-header`: records how each header stood to the body, and returns the annotated names
 * whose header disagrees with the body, with the header's value decoded; empty when none does. A
 * header that is absent is recorded and not counted, so that a relay which mirrors no parameters
 * is still served; the ledger shows it did not.
 */
function mismatchedParams(knobs: Knobs, ledger: ServerSetup['ledger'], headers: Readonly<Record<string, string>>, params: unknown): Array<{ name: string; header: string }> {
  const tool = isRecord(params) ? params['name'] : undefined;
  const preset = typeof tool === 'string' ? knobs.schemas[tool] : undefined;
  if (typeof tool !== 'string' || preset === undefined) return [];
  const annotated = annotatedPaths(presetSchema(preset, knobs.canaryPort));
  if (annotated.length === 0) return [];
  const states = paramHeaderStates(headers, annotated, isRecord(params) ? params['arguments'] : undefined);
  ledger.append({ ev: 'param_headers', tool, headers: states });
  return Object.keys(states)
    .filter((name) => states[name] === 'mismatch')
    .map((name) => ({ name, header: decoded(headers[`mcp-param-${name.toLowerCase()}`]) ?? '' }));
}

/**
 * The answer of a server that acts on the headers (`param_headers=trusted`, as one behind a load
 * balancer routing on them): the call was carried out with each mismatched argument as its header
 * said, and the answer says so, with the canary.
 */
function actedOnHeaders(key: string, tool: string, mismatched: ReadonlyArray<{ name: string; header: string }>): string {
  const acted = mismatched.map(({ name, header }) => `${name} ${JSON.stringify(header)}`).join(', ');
  return `{"jsonrpc":"2.0","id":${key},"result":${JSON.stringify({ resultType: 'complete', content: [{ type: 'text', text: `${tool} carried out with ${acted}, as the Mcp-Param headers said, not the body: ${CANARY}` }], isError: false })}}`;
}

/**
 * Serves over HTTP until serve() stops (the control file broke, or `die_on_call`); the harness
 * otherwise ends it with a signal. Resolves with serve()'s reason once every listener is closed.
 */
/** The one session a server with `http_sse: outside` names on every answer. */
const OUTSIDE_SESSION = 'kit-session-1';

/** Keeps an open stream in `streams` until it closes. */
function keepWhileOpen(streams: ServerResponse[], response: ServerResponse): void {
  streams.push(response);
  response.once('close', () => {
    const at = streams.indexOf(response);
    if (at !== -1) streams.splice(at, 1);
  });
}

export async function serveHttp(setup: ServerSetup, addresses: readonly string[]): Promise<StopReason> {
  const { knobs, ledger } = setup;
  const input = new PassThrough();
  // serve() answers in its own time (or never, for hang_on_call): replies are matched by id, and
  // each is sent without holding serve() up, so one slow reader delays no other request.
  const waiting = new Map<string, (reply: SentLine) => void>();
  // With http_sse, the streams still waiting for their answer, oldest first: what the server
  // sends of its own goes on the latest, the call it handles (scenarios make one at a time).
  const streams: ServerResponse[] = [];
  let eventIds = 0;
  // With http_sse outside, the streams clients opened with a GET, oldest first: what the server
  // sends of its own goes on the latest, never on a call's stream, and nowhere when none is open.
  const outside: ServerResponse[] = [];
  const onSent = (sent: SentLine): void => {
    if (sent.inReplyTo === null) {
      const stream = knobs.httpSse === 'outside' ? outside.at(-1) : streams.at(-1);
      if (stream !== undefined) void streamPieces(stream, sseEvent(sent.line));
      return;
    }
    const respond = waiting.get(sent.inReplyTo);
    if (respond === undefined) return;
    waiting.delete(sent.inReplyTo!);
    respond(sent);
  };

  const handle: RequestListener = (request, response) => {
    // Node ends the connection after a response that says so: the client must dial again, and
    // look the name up again if it resolves at each dial (DNS rebinding).
    if (knobs.httpCloseConnections) response.setHeader('connection', 'close');
    const headers = headersOf(request);
    const mirrored = mirroredHeaders(headers);
    ledger.append({ ev: 'request', method: request.method ?? '', path: request.url ?? '', headers, ...(Object.keys(mirrored).length === 0 ? {} : { mcp_headers: mirrored }) });
    if (knobs.httpOauth !== null && answerOauth(knobs.httpOauth, knobs.oauthEndpointsAt, request, response, knobs.httpTls)) return;
    const stateless = statelessClient(knobs, headers);
    // 2026-07-28 has no GET stream and no session to end (streamable-http, "HTTP GET or DELETE to
    // the MCP endpoint: respond with `405 Method Not Allowed`").
    if (stateless && (request.method === 'GET' || request.method === 'DELETE')) {
      response.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    // A stream outside any call belongs to a session (Streamable HTTP): the server names one, as
    // the SDK's stateful server does, and a client opens the stream once it is given one. 2026-07-28
    // has none: "do not mint or echo session IDs".
    if (knobs.httpSse === 'outside' && !stateless) response.setHeader('mcp-session-id', OUTSIDE_SESSION);
    if (knobs.httpSse === 'outside' && request.method === 'GET') {
      openStream(response, ++eventIds);
      keepWhileOpen(outside, response);
      return;
    }
    void (async () => {
      const line = (await text(request)).replace(/[\r\n]/g, ' ');
      const { key, method, params, version } = routing(line);
      // A 2026-07-28 request is answered only when its headers say what its body says; serve()
      // never reads one that does not (the ledger's request record holds the headers it came with).
      const bodyStateless = version === STATELESS && knobs.revisions.includes(STATELESS) && typeof method === 'string';
      const mismatch = bodyStateless ? headerMismatch(headers, method, params, STATELESS) : null;
      // A request the 2025-11-25 handshake does not cover (one naming a revision, or any to a server
      // without 2025-11-25) is answered with 2026-07-28's statuses, its refusals included.
      const modern = knobs.revisions.includes(STATELESS) && (version !== undefined || !knobs.revisions.includes(HANDSHAKE));
      const mismatched = mismatch === null && bodyStateless && method === 'tools/call' ? mismatchedParams(knobs, ledger, headers, params) : [];
      // "Servers MUST reject" a header that disagrees with the body, unless this one trusts its headers.
      const paramMismatch = mismatched.length === 0 || knobs.paramHeaders === 'trusted' ? null : `Header mismatch: Mcp-Param-${mismatched.map(({ name }) => name).join(', Mcp-Param-')} does not match the body's arguments`;
      if (mismatch !== null || paramMismatch !== null) {
        response.writeHead(400, { 'content-type': 'application/json' }).end(errorText(key ?? null, HEADER_MISMATCH, (mismatch ?? paramMismatch)!));
        return;
      }
      const acted = mismatched.length === 0 || key === undefined ? null : actedOnHeaders(key, String((params as Record<string, unknown>)['name']), mismatched);
      const call = method === 'tools/call';
      const location = call ? redirectLocation(knobs, port, request.socket.localAddress) : null;
      if (location !== null) {
        response.writeHead(307, { location }).end();
        return;
      }
      // A response (the client's answer to a request of the server's own) is owed only 202, as a notification is.
      const isRequest = key !== undefined && method !== undefined;
      const onStream = isRequest && knobs.httpSse !== null;
      if (onStream) {
        openStream(response, ++eventIds);
        keepWhileOpen(streams, response);
      }
      if (onStream && call && knobs.httpSse === 'endless') {
        // serve() still handles the call (the ledger shows it received), and its answer is never sent.
        waiting.set(key, () => undefined);
        sendEndless(response).catch(() => response.destroy());
      } else if (isRequest) {
        waiting.set(key, (reply) => {
          const sending =
            acted !== null
              ? sendReply(response, { ...reply, line: acted }, null, onStream, 200)
              : call && knobs.httpOversize !== null
              ? sendOversized(response, key, knobs.httpOversize === 'announced')
              : sendReply(response, reply, call && knobs.httpEchoHeaders ? headers : null, onStream, modern ? statelessStatus(reply.line) : 200);
          sending.catch(() => response.destroy());
        });
      }
      input.write(`${line}\n`);
      if (!isRequest) response.writeHead(202).end();
    })().catch(() => response.destroy());
  };
  const tls = knobs.httpTls ? tlsDir() : undefined;
  // The HTTP modules are loaded only by a server that serves HTTP: most serve stdio, and loading
  // them is a measurable part of a kit server's start.
  const makeListener = (): Server =>
    tls === undefined
      ? process.getBuiltinModule('node:http').createServer(handle)
      : process.getBuiltinModule('node:https').createServer({ cert: readFileSync(join(tls, 'server.pem')), key: readFileSync(join(tls, 'server-key.pem')) }, handle);
  // Every address is served on one port, the first listener's: a URL names that port, and
  // whichever address its host resolves to (DNS rebinding) reaches this server.
  const listeners: Server[] = [];
  let port = 0;
  for (const address of addresses) {
    const listener = makeListener();
    // Over TLS too, the TCP connection is recorded as it is accepted, before any handshake; with
    // the address it reached, which tells apart listeners that share the port.
    listener.on('connection', (socket) => ledger.append({ ev: 'connection', remote: socket.remoteAddress ?? null, local: socket.localAddress ?? null }));
    listeners.push(listener);
    await new Promise<void>((resolve, reject) => {
      listener.once('error', reject);
      listener.listen(port, address, () => resolve());
    });
    const bound = listener.address();
    if (bound === null || typeof bound === 'string') throw new Error('the HTTP listener has no port');
    port = bound.port;
  }
  ledger.append({ ev: 'listening', port });

  // What `icons.<tool>=https-same-origin` names: the first address, on the port it was bound to.
  const first = addresses[0] ?? '127.0.0.1';
  const origin = `${knobs.httpTls ? 'https' : 'http'}://${isIPv6(first) ? `[${first}]` : first}:${port}`;
  const reason = await serve({ ...setup, knobs: { ...knobs, origin } }, { input, output: onSent });
  for (const listener of listeners) listener.closeAllConnections();
  await Promise.all(listeners.map((listener) => new Promise<void>((resolve) => listener.close(() => resolve()))));
  return reason;
}
