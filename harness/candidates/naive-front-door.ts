import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { text } from 'node:stream/consumers';

/**
 * The passthrough's HTTP front door, as naive as a Streamable HTTP server gets: it listens on
 * every interface (a plain `listen(port)`), answers any Origin and any Host, numbers its sessions
 * 1, 2, 3..., serves a request whatever session id it carries (or none), opens a stream to any
 * GET, ends whichever session a DELETE names, and hands each message on with the Authorization header it came with; a
 * notification the server sends goes to every open stream, whoever's call it came from, and a
 * request it starts to the latest stream open, whoever opened it. A POST whose client accepts an
 * event stream is answered with one, as the SDK's own server answers, carrying the progress whose
 * token its request carries (matched by token alone, whoever's session sent it) and then the
 * answer. It exists
 * to prove that the front-door scenarios can fail; the harness reaches it on 127.0.0.1 only. Given
 * a key, it refuses every request without it, and is as naive as before in everything else.
 */

/**
 * Receives each message the agent posted, with the Authorization header it came with and its
 * `Mcp-Param-*` headers (MCP 2026-07-28, names in lower case): "Intermediate servers that do not
 * recognize an `Mcp-Param-{Name}` header MUST forward it", and a relay recognizes none.
 */
export type Forward = (line: string, authorization: string | undefined, params: Record<string, string>) => void;

/** The request's `Mcp-Param-*` headers, as they came. */
function paramHeadersOf(req: IncomingMessage): Record<string, string> {
  return Object.fromEntries(Object.entries(req.headers).filter((entry): entry is [string, string] => entry[0].startsWith('mcp-param-') && typeof entry[1] === 'string'));
}

interface Waiting {
  res: ServerResponse;
  id: unknown;
  headers: Record<string, string>;
  /** Whether the POST is answered as an event stream (its head already written), rather than as JSON. */
  streams: boolean;
  /** The progress token the request carries, as JSON text. */
  progressToken: string | undefined;
}

/** A progress token as JSON text, so that the number 1 and the string "1" stay apart. */
function tokenText(holder: unknown): string | undefined {
  const token = typeof holder === 'object' && holder !== null ? (holder as { progressToken?: unknown }).progressToken : undefined;
  return token === undefined ? undefined : JSON.stringify(token);
}

const event = (line: string) => `event: message\ndata: ${line}\n\n`;

/** The header the keyed fixture's front door takes its key in, as some real bridges take theirs in a header of their own. */
export const FRONT_DOOR_KEY_HEADER = 'x-front-door-key';
/** The proxy's variable for that key. */
export const FRONT_DOOR_KEY_VARIABLE = 'GAUNTLET_PROXY_FRONT_DOOR_KEY';

export class NaiveFrontDoor {
  private sessions = 0;
  private readonly ended = new Set<string>();
  private nextId = 0;
  /** Requests on their way to the server, by the id they were forwarded under. */
  private readonly waiting = new Map<number, Waiting>();
  /** The GET streams open, oldest first. */
  private readonly streams: ServerResponse[] = [];

  /**
   * With `key`, every request without it in `x-front-door-key` is refused with 401 and nothing
   * else changes: the keyed fixture, a front door whose only protection is a credential.
   */
  constructor(
    private readonly forward: Forward,
    private readonly key?: string,
  ) {}

  listen(port: number): Promise<void> {
    const server = createServer((req, res) => void this.handle(req, res).catch(() => res.destroy()));
    return new Promise((resolve) => server.listen(port, resolve));
  }

  /**
   * One line from the server: the answer to a request is the body of its POST; progress for a
   * request whose POST is an event stream goes on that stream, ahead of the answer (a client drops
   * progress for a request it has its answer to, and its GET stream may not be open yet); any
   * other notification goes to every GET stream open, a request the server starts to the latest
   * one (nowhere while none is); anything else is dropped.
   */
  deliver(line: string): void {
    let message: { id?: unknown; method?: unknown; params?: unknown };
    try {
      message = JSON.parse(line) as { id?: unknown; method?: unknown; params?: unknown };
    } catch {
      return;
    }
    const progressed = message.method === 'notifications/progress' ? this.streamWaitingFor(tokenText(message.params)) : undefined;
    if (progressed !== undefined) {
      progressed.res.write(event(line));
      return;
    }
    if (typeof message.method === 'string') {
      // A request is answered once, so it goes to one stream; a notice to every one.
      const targets = message.id === undefined ? this.streams : this.streams.slice(-1);
      for (const stream of targets) stream.write(event(line));
      return;
    }
    const waiting = typeof message.id === 'number' ? this.waiting.get(message.id) : undefined;
    if (waiting === undefined) return;
    this.waiting.delete(message.id as number);
    const answer = JSON.stringify({ ...message, id: waiting.id });
    if (waiting.streams) waiting.res.end(event(answer));
    else waiting.res.writeHead(200, { 'content-type': 'application/json', ...waiting.headers }).end(answer);
  }

  /** The first POST answered as an event stream whose request carries `token`, from any session. */
  private streamWaitingFor(token: string | undefined): Waiting | undefined {
    if (token === undefined) return undefined;
    return [...this.waiting.values()].find((waiting) => waiting.streams && waiting.progressToken === token);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // A fixture's check, compared plainly: the reference compares its credential in constant time.
    if (this.key !== undefined && req.headers[FRONT_DOOR_KEY_HEADER] !== this.key) {
      res.writeHead(401).end();
      return;
    }
    const session = req.headers['mcp-session-id'];
    if (typeof session === 'string' && this.ended.has(session)) {
      res.writeHead(404).end();
      return;
    }
    if (req.method === 'DELETE') {
      if (typeof session === 'string') this.ended.add(session);
      res.writeHead(200).end();
      return;
    }
    if (req.method === 'GET') {
      // A stream for whoever asks, whatever session it names, carrying what the server starts.
      res.writeHead(200, { 'content-type': 'text/event-stream' }).write(': open\n\n');
      this.streams.push(res);
      res.once('close', () => this.streams.splice(this.streams.indexOf(res), 1));
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    const body = await text(req);
    let message: { id?: unknown; method?: unknown; params?: { _meta?: unknown } };
    try {
      message = JSON.parse(body) as { id?: unknown; method?: unknown; params?: { _meta?: unknown } };
    } catch {
      res.writeHead(400).end();
      return;
    }
    const authorization = req.headers.authorization;
    const params = paramHeadersOf(req);
    if (message.id === undefined || typeof message.method !== 'string') {
      this.forward(body, authorization, params);
      res.writeHead(202).end();
      return;
    }
    // Ids are renumbered so that two clients' requests cannot collide on the one server connection.
    this.nextId += 1;
    const headers: Record<string, string> = message.method === 'initialize' ? { 'mcp-session-id': String((this.sessions += 1)) } : {};
    const streams = (req.headers.accept ?? '').includes('text/event-stream');
    if (streams) res.writeHead(200, { 'content-type': 'text/event-stream', ...headers });
    this.waiting.set(this.nextId, { res, id: message.id, headers, streams, progressToken: tokenText(message.params?._meta) });
    this.forward(JSON.stringify({ ...message, id: this.nextId }), authorization, params);
  }
}
