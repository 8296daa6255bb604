import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { aggregate, type AggregatedServer } from './aggregator.js';
import { LabelStamp } from './label-stamp.js';
import { DROP_KINDS, dropsLine, type DropKind } from './line-drop.js';
import { FRONT_DOOR_KEY_VARIABLE, NaiveFrontDoor } from './naive-front-door.js';
import { naiveToken } from './naive-token.js';
import { HTTPS_ONLY_REFUSAL, plainHttpRefusal } from './plain-http-refusal.js';
import { revisionHeaders } from '../agent/streamable-http.js';

/**
 * The passthrough candidate's process: it starts the server named after `--` and copies bytes
 * both ways, unchanged and unchecked; or, given `--url`, it posts each line to that URL and
 * copies each answer back. It exists to prove that scenarios can fail.
 *
 * Given `--servers JSON [--tokens JSON]` it is a naive aggregator of several servers instead
 * (aggregator.ts).
 *
 * As a harness self-test fixture (the label-stamper candidate), `--stamp-code CODE` and
 * `--stamp-truncation`, given first, make it a liar: every tools/call result it forwards carries
 * every refusal label (label-stamp.ts) and still all of its content. Everything else it copies as
 * it came.
 *
 * `--front-door PORT`, given first, has it serve the agent over Streamable HTTP on that port
 * instead of its stdio, as naively as naive-front-door.ts says; with GAUNTLET_PROXY_FRONT_DOOR_KEY
 * set, requiring that key of every client (the keyed-front-door fixture).
 *
 * As another fixture (the late-notices candidate), `--hold-notices`, given first, has it hold each
 * notification the server sends on stdio until the agent sends its next line, or the server's
 * output ends: after the answer, as an HTTP broker's GET stream can deliver a call's notices.
 *
 * As another (the dropper candidate), `--drop KIND`, given first, has it keep the server's lines
 * of that kind (line-drop.ts) from the agent on stdio, silently.
 *
 * As another (the https-only candidate), `--https-only`, given first, has it refuse a `--url` that
 * plain-http-refusal.ts refuses: one line on stderr naming it, and exit 2, before dialling
 * anything.
 */
function main(argv: string[]): void {
  const { port, rest: unfronted } = frontDoorOption(argv);
  const hold = unfronted[0] === '--hold-notices';
  const httpsOnly = unfronted[0] === '--https-only';
  const drop = unfronted[0] === '--drop' && DROP_KINDS.includes(unfronted[1] as DropKind) ? (unfronted[1] as DropKind) : undefined;
  const { stamp, rest } = stampOptions(hold || httpsOnly ? unfronted.slice(1) : drop !== undefined ? unfronted.slice(2) : unfronted);
  if (rest[0] === '--servers' && rest[1] !== undefined) {
    const tokens = rest[2] === '--tokens' && rest[3] !== undefined ? (JSON.parse(rest[3]) as Record<string, string>) : {};
    aggregate(JSON.parse(rest[1]) as AggregatedServer[], tokens);
    return;
  }
  const refusal = httpsOnly && rest[0] === '--url' && rest[1] !== undefined ? plainHttpRefusal(rest[1]) : undefined;
  if (refusal !== undefined) {
    process.stderr.write(`${HTTPS_ONLY_REFUSAL}${refusal}\n`);
    process.exit(2);
  }
  const agent = port === undefined ? stdioAgent() : httpAgent(port);
  if (rest[0] === '--url' && rest[1] !== undefined) {
    const option = (name: string) => {
      const at = rest.indexOf(name, 2);
      return at < 0 ? undefined : rest[at + 1];
    };
    const tokens = option('--tokens');
    proxyToUrl(agent, rest[1], tokens === undefined ? {} : (JSON.parse(tokens) as Record<string, string>), option('--token'), stamp);
    return;
  }
  const separator = rest.indexOf('--');
  const [command, ...args] = separator >= 0 ? rest.slice(separator + 1) : [];
  if (!command) {
    process.stderr.write('usage: passthrough-proxy [--front-door PORT] [--hold-notices | --https-only | --drop non-ascii|notifications] [--stamp-code CODE [--stamp-truncation]] (-- COMMAND [ARG ...] | --url URL | --servers JSON [--tokens JSON])\n');
    process.exit(2);
  }
  const server = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  if (agent.http) {
    agent.onLine((line) => server.stdin.write(`${line}\n`));
    eachLine(server.stdout, (line) => agent.write(line.toString('utf8')));
  } else if (hold) {
    holdingNotices(process.stdin, server.stdout);
    process.stdin.pipe(server.stdin);
  } else if (drop !== undefined) {
    process.stdin.pipe(server.stdin);
    eachLine(server.stdout, (line) => {
      if (!dropsLine(drop, line)) process.stdout.write(line);
    });
  } else if (stamp === undefined) {
    process.stdin.pipe(server.stdin);
    server.stdout.pipe(process.stdout);
  } else {
    process.stdin.pipe(server.stdin);
    eachLine(process.stdin, (line) => stamp.noteRequest(line.toString('utf8')));
    eachLine(server.stdout, (line) => {
      const stamped = stamp.stamp(line.toString('utf8'));
      process.stdout.write(stamped === undefined ? line : `${stamped}\n`);
    });
  }
  server.stdin.on('error', () => undefined);
  server.on('exit', (code) => process.exit(code ?? 1));
  server.on('error', () => process.exit(1));
}

/** Copies the server's lines to stdout, its notifications held until the agent's next line or the server's end. */
function holdingNotices(agent: Readable, server: Readable): void {
  let held: Buffer[] = [];
  const release = () => {
    if (held.length > 0) process.stdout.write(Buffer.concat(held));
    held = [];
  };
  agent.on('data', release);
  server.on('end', release);
  eachLine(server, (line) => {
    let message: { id?: unknown; method?: unknown } = {};
    try {
      message = JSON.parse(line.toString('utf8')) as typeof message;
    } catch {
      // Not JSON: forwarded in its place, as the plain passthrough would.
    }
    if (typeof message.method === 'string' && message.id === undefined) {
      held.push(line);
      return;
    }
    process.stdout.write(line);
  });
}

/** `--front-door PORT` at the front of the command line, if given, and the rest of it. */
function frontDoorOption(argv: string[]): { port: number | undefined; rest: string[] } {
  return argv[0] === '--front-door' ? { port: Number(argv[1]), rest: argv.slice(2) } : { port: undefined, rest: argv };
}

/** Where the agent's messages come from and its answers go: lines, each with the Authorization it came with. */
interface AgentSide {
  readonly http: boolean;
  /** `params` are the `Mcp-Param-*` headers an agent over HTTP sent with the line (none over stdio). */
  onLine(handler: (line: string, authorization: string | undefined, params: Record<string, string>) => void): void;
  write(line: string): void;
}

function stdioAgent(): AgentSide {
  return {
    http: false,
    onLine(handler) {
      const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
      lines.on('line', (line) => handler(line, undefined, {}));
      lines.on('close', () => process.exit(0));
    },
    write: (line) => process.stdout.write(`${line.trimEnd()}\n`),
  };
}

/** The agent over HTTP: it serves until it is signalled. */
function httpAgent(port: number): AgentSide {
  const handlers: Array<Parameters<AgentSide['onLine']>[0]> = [];
  // The keyed fixture's key comes in the environment, as a broker's own credential would.
  const key = process.env[FRONT_DOOR_KEY_VARIABLE] || undefined;
  const door = new NaiveFrontDoor((line, authorization, params) => handlers.forEach((handler) => handler(line, authorization, params)), key);
  void door.listen(port);
  return { http: true, onLine: (handler) => void handlers.push(handler), write: (line) => door.deliver(line) };
}

/** `--stamp-code CODE [--stamp-truncation]` at the front of the command line, if given, and the rest of it. */
function stampOptions(argv: string[]): { stamp: LabelStamp | undefined; rest: string[] } {
  const code = argv[0] === '--stamp-code' ? argv[1] : undefined;
  if (code === undefined) return { stamp: undefined, rest: argv };
  const truncation = argv[2] === '--stamp-truncation';
  return { stamp: new LabelStamp({ code, truncation }), rest: argv.slice(truncation ? 3 : 2) };
}

/**
 * Calls `onLine` with each line of `input` as the bytes it came in, its `\n` included, and with
 * what is left unterminated when the stream ends: a line the stamp leaves alone goes on unchanged.
 */
function eachLine(input: Readable, onLine: (line: Buffer) => void): void {
  let pieces: Buffer[] = [];
  input.on('data', (chunk: Buffer) => {
    let start = 0;
    for (let newline = chunk.indexOf(10); newline >= 0; newline = chunk.indexOf(10, start)) {
      pieces.push(chunk.subarray(start, newline + 1));
      onLine(Buffer.concat(pieces));
      pieces = [];
      start = newline + 1;
    }
    if (start < chunk.length) pieces.push(chunk.subarray(start));
  });
  input.on('end', () => {
    if (pieces.length > 0) onLine(Buffer.concat(pieces));
  });
}

/**
 * As naive as an HTTP client gets: whatever the scheme but https, it dials the host and port as
 * plain HTTP; it follows every redirect; it reads every body whole; it sends a bearer token as
 * naiveToken picks one, unless the agent sent an Authorization header of its own, which it
 * passes on instead (token passthrough). A request it could not get an answer to is answered
 * with a JSON-RPC error, so the agent is never left waiting.
 */
function proxyToUrl(agent: AgentSide, target: string, tokens: Record<string, string>, configured: string | undefined, stamp: LabelStamp | undefined): void {
  const url = new URL(target);
  const bearer = naiveToken(url.hostname, tokens, configured);
  if (url.protocol !== 'https:') url.protocol = 'http:';
  // The session the server gave at the latest initialize, sent back on every later request as
  // Streamable HTTP asks: without it an ordinary server (the SDK's) refuses everything after
  // initialize. Each initialize opens a new session (a front door's clients each send one).
  let sessionId: string | undefined;
  agent.onLine((line, agentAuthorization, agentParams) => {
    stamp?.noteRequest(line);
    const authorization = agentAuthorization ?? (bearer === undefined ? undefined : `Bearer ${bearer}`);
    const initialize = /"method"\s*:\s*"initialize"/.test(line);
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(authorization === undefined ? {} : { authorization }),
      ...(sessionId === undefined || initialize ? {} : { 'mcp-session-id': sessionId }),
      // A 2026-07-28 request says its method and name in headers too, as every client of that revision must.
      ...revisionHeaders(line),
      // The agent's Mcp-Param-* headers, passed on unread: what the server and the body disagree on is not its business.
      ...agentParams,
    };
    void fetch(url, { method: 'POST', headers, body: line })
      .then(async (response) => {
        const given = response.headers.get('mcp-session-id');
        if (given !== null && given !== sessionId && (initialize || sessionId === undefined)) {
          sessionId = given;
          listen(url, { ...headers, 'mcp-session-id': given }, (data) => agent.write(stamp?.stamp(data) ?? data));
        }
        if (!response.ok) answerFailure(agent, line, `HTTP ${response.status}`);
        else if (response.headers.get('content-type')?.startsWith('text/event-stream') === true) await copyEvents(response, (data) => agent.write(stamp?.stamp(data) ?? data));
        else {
          const body = (await response.text()).trim();
          if (body !== '') agent.write(stamp?.stamp(body) ?? body);
        }
      })
      .catch((error: Error) => answerFailure(agent, line, error.message));
  });
}

/**
 * The session's GET stream, opened once the server gave a session: what it sends outside any
 * call (a roots/list it asks when it likes) reaches the agent as any other line. Unbounded, as
 * the rest of this proxy; it ends with the process.
 */
function listen(url: URL, headers: Record<string, string>, write: (data: string) => void): void {
  const { 'content-type': _json, ...rest } = headers;
  void fetch(url, { method: 'GET', headers: { ...rest, accept: 'text/event-stream' } })
    .then(async (response) => {
      if (response.ok && response.headers.get('content-type')?.startsWith('text/event-stream') === true) await copyEvents(response, write);
    })
    .catch(() => {
      // A server without a GET stream: nothing more to hear.
    });
}

/**
 * An event-stream answer copied to the agent event by event, each event's data as one line, for
 * as long as the server sends: no bound, no check, and no line ending but LF understood.
 */
async function copyEvents(response: Response, write: (data: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of response.body ?? []) {
    text += decoder.decode(chunk as Uint8Array, { stream: true });
    for (let end = text.indexOf('\n\n'); end !== -1; end = text.indexOf('\n\n')) {
      const data = text.slice(0, end).split('\n').filter((field) => field.startsWith('data:')).map((field) => field.slice(5).trimStart());
      text = text.slice(end + 2);
      if (data.join('') !== '') write(data.join('\n'));
    }
  }
}

function answerFailure(agent: AgentSide, line: string, problem: string): void {
  let id: unknown;
  try {
    id = (JSON.parse(line) as { id?: unknown }).id;
  } catch {
    return;
  }
  if (id !== undefined) agent.write(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32000, message: problem } }));
}

main(process.argv.slice(2));
