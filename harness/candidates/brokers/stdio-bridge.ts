import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { pathToFileURL } from 'node:url';
import { text } from 'node:stream/consumers';

/**
 * The adapters' bridge for brokers that dial servers by URL only (mcp-remote, civic-passthrough):
 * it starts a command server and serves it over Streamable HTTP on a loopback port, so that such
 * a broker can be put in front of the suite's command servers at all. It is the adapter's part,
 * not the broker's, and it must add nothing the broker could be credited with: every line goes
 * through as it came, both ways. It reads a server line's `id` and `method` only to choose which
 * HTTP stream carries it (a request's answer ends that request's event stream; a notification or
 * a request of the server's goes on the newest open request stream, or waits for the next
 * request: it offers no GET stream). It checks, filters and renumbers nothing, and one broker
 * session is all it serves.
 *
 * Usage: stdio-bridge PORT -- COMMAND [ARG ...]. It writes `listening` on stdout once it accepts
 * connections; the server's stderr is its own. It exits when the server does.
 */

/** What waits for a stream to carry it, bounded: past it the oldest is dropped, as a full pipe would stall. */
const MAX_WAITING = 10_000;

interface Route {
  id?: unknown;
  method?: unknown;
}

/** The id and method of a line, if it is a JSON object; anything else is routed as a message of the server's own. */
function routeOf(line: string): Route {
  try {
    const value = JSON.parse(line) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Route) : {};
  } catch {
    return {};
  }
}

/** The one path it serves (the adapters dial `http://127.0.0.1:PORT/mcp`). */
export const ENDPOINT = '/mcp';

const key = (id: unknown): string => JSON.stringify(id);

/** One SSE event carrying the line as it came (a line has no newline, so it is one data field). */
const event = (line: string): string => `event: message\ndata: ${line}\n\n`;

function openStream(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
}

class Bridge {
  /** Each request's event stream, by its id, until the server answers it. */
  private readonly pending = new Map<string, ServerResponse>();
  private readonly waiting: string[] = [];

  constructor(private readonly toServer: (line: string) => void) {}

  fromServer(line: string): void {
    const { id, method } = routeOf(line);
    const answering = method === undefined && id !== undefined ? this.pending.get(key(id)) : undefined;
    if (answering !== undefined) {
      this.pending.delete(key(id));
      answering.end(event(line));
      return;
    }
    const stream = [...this.pending.values()].at(-1);
    if (stream !== undefined) stream.write(event(line));
    else if (this.waiting.push(line) > MAX_WAITING) this.waiting.shift();
  }

  private flush(stream: ServerResponse): void {
    for (const line of this.waiting.splice(0)) stream.write(event(line));
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // The endpoint only: a broker's OAuth discovery (/.well-known/...) finds nothing, as at a server without sign-in.
    if (new URL(req.url ?? '/', 'http://bridge').pathname !== ENDPOINT) {
      res.writeHead(404).end();
      return;
    }
    if (req.method === 'DELETE') {
      res.writeHead(200).end();
      return;
    }
    // No GET stream (Streamable HTTP lets a server answer GET 405): a broker's probe of the
    // endpoint would otherwise hold the stream the server's own messages went to, unread.
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST, DELETE' }).end();
      return;
    }
    const body = await text(req);
    const { id, method } = routeOf(body);
    if (id === undefined || typeof method !== 'string') {
      // A notification or the broker's answer to a server request: nothing comes back on this POST.
      res.writeHead(202).end();
      this.toServer(body);
      return;
    }
    openStream(res);
    this.pending.set(key(id), res);
    this.flush(res);
    this.toServer(body);
  }
}

function main(argv: string[]): void {
  const port = Number(argv[0]);
  const [command, ...args] = argv[1] === '--' ? argv.slice(2) : [];
  if (!Number.isInteger(port) || command === undefined) {
    process.stderr.write('usage: stdio-bridge PORT -- COMMAND [ARG ...]\n');
    process.exit(2);
  }
  const server = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  // A body's newlines can only be JSON whitespace (a string cannot hold one raw): as spaces it means the same on one line.
  const bridge = new Bridge((line) => server.stdin.write(`${line.replace(/\r?\n/g, ' ')}\n`));
  let rest = '';
  server.stdout.setEncoding('utf8');
  server.stdout.on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) if (line.replace(/\r$/, '') !== '') bridge.fromServer(line.replace(/\r$/, ''));
  });
  server.stdin.on('error', () => undefined);
  server.on('exit', (code) => process.exit(code ?? 1));
  const http = createServer((req, res) => void bridge.handle(req, res).catch(() => res.destroy()));
  http.listen(port, '127.0.0.1', () => process.stdout.write('listening\n'));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main(process.argv.slice(2));
