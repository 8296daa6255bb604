import { createInterface } from 'node:readline';
import { lineBreak, unfinishedData } from './line-break.js';

/**
 * The agent's side of MCP's HTTP+SSE transport (protocol revision 2024-11-05, deprecated since
 * 2025-03-26 but still what some brokers serve): a GET opens an event stream whose first event,
 * `endpoint`, names where to POST each message; every message of the broker's comes back as a
 * `message` event on that stream. Run as a process of its own (through a session's launch prefix,
 * so it reaches a broker inside a network enclosure):
 *
 *   node legacy-sse-relay.js URL READY_MS
 *
 * Lines on stdin are the agent's messages, POSTed in order; each `message` event's data is written
 * to stdout as one line, exactly as the broker sent it; notes go to stderr. It exits 0 at the end
 * of stdin and 1 when the stream ends, fails or carries an event over the cap, or when nothing
 * accepts the GET within READY_MS while the broker starts. Of a message over the cap, what came
 * up to the cap is written first, as one line: the broker sent the agent that much, and the
 * harness judges it (an answer past a scenario's byte bound is harm, not a channel error).
 */

/** Longest event accepted, as for a Streamable HTTP body. */
const MAX_EVENT_BYTES = 16 * 1024 * 1024;
/** Bound on each POST. */
const POST_TIMEOUT_MS = 60_000;

interface SseEvent {
  event: string;
  data: string;
  /** The event went past the cap: `data` is what came up to it. */
  over?: true;
}

/** The events of an SSE stream (https://html.spec.whatwg.org/#event-stream-interpretation), each bounded. */
async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let size = 0;
  for await (const chunk of body) {
    const scanned = buffer.length;
    buffer += decoder.decode(chunk, { stream: true });
    let newline = lineBreak(buffer, scanned);
    while (newline >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
      if (line === '') {
        if (data.length > 0) yield { event: event || 'message', data: data.join('\n') };
        event = '';
        data = [];
        size = 0;
      } else {
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const raw = colon < 0 ? '' : line.slice(colon + 1);
        const value = raw.startsWith(' ') ? raw.slice(1) : raw;
        if (field === 'event') event = value;
        if (field === 'data') {
          data.push(value);
          size += value.length;
        }
      }
      newline = lineBreak(buffer, 0);
    }
    if (size + buffer.length > MAX_EVENT_BYTES) {
      yield { event: event || 'message', data: `${data.join('')}${unfinishedData(buffer)}`.slice(0, MAX_EVENT_BYTES), over: true };
      throw new Error(`an event over ${MAX_EVENT_BYTES} bytes`);
    }
  }
}

function note(text: string): void {
  process.stderr.write(`[gauntlet sse relay] ${text}\n`);
}

/** The GET that opens the stream, retried with a growing pause while nothing accepts connections. */
async function openStream(url: string, readyMs: number, signal: AbortSignal, headers: Record<string, string>): Promise<Response> {
  const deadline = Date.now() + readyMs;
  let pause = 10;
  for (;;) {
    try {
      return await fetch(url, { headers: { ...headers, accept: 'text/event-stream' }, signal });
    } catch (error) {
      if (Date.now() + pause > deadline) throw new Error(`nothing accepted GET ${url} within ${readyMs} ms: ${(error as Error).message}`);
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(pause * 2, 200);
  }
}

async function main(url: string, readyMs: number, headers: Record<string, string>): Promise<void> {
  const stream = new AbortController();
  const response = await openStream(url, readyMs, stream.signal, headers);
  if (!response.ok || response.body === null) throw new Error(`GET ${url}: HTTP ${response.status}`);
  let endpoint: (value: URL) => void = () => {};
  const postTo = new Promise<URL>((resolve) => (endpoint = resolve));
  // Messages are POSTed one after another, in the order the agent sent them.
  let posting: Promise<unknown> = postTo;
  const input = createInterface({ input: process.stdin, crlfDelay: Infinity });
  input.on('line', (line) => {
    posting = posting.then(async () => {
      const target = await postTo;
      try {
        const answer = await fetch(target, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: line, signal: AbortSignal.timeout(POST_TIMEOUT_MS) });
        if (!answer.ok) note(`HTTP ${answer.status} for a POST: ${(await answer.text()).slice(0, 300)}`);
        else await answer.body?.cancel();
      } catch (error) {
        note(`a POST failed: ${(error as Error).message}`);
      }
    });
  });
  input.once('close', () => {
    void posting.then(() => {
      stream.abort();
      process.exit(0);
    });
  });
  for await (const { event, data, over } of sseEvents(response.body)) {
    if (event === 'endpoint' && !over) endpoint(new URL(data, url));
    else if (event === 'message' && over) await new Promise((written) => process.stdout.write(`${data.replace(/[\r\n]/g, '')}\n`, written));
    else if (event === 'message') process.stdout.write(`${data}\n`);
  }
  throw new Error('the event stream ended');
}

// HEADERS_JSON: the front door's credential, when the broker requires one.
const [url, readyMs, headers] = process.argv.slice(2);
if (url === undefined || !(Number(readyMs) > 0)) {
  process.stderr.write('usage: legacy-sse-relay.js URL READY_MS [HEADERS_JSON]\n');
  process.exit(2);
}
main(url, Number(readyMs), headers ? (JSON.parse(headers) as Record<string, string>) : {}).catch((error: Error) => {
  note(error.message);
  process.exit(1);
});
