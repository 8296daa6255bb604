import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { spawnChannel, spawnGroup, throughPrefix, type GroupProcess, type SpawnOptions } from '../candidates/child.js';
import { httpRelayEntry } from '../paths.js';
import type { AgentChannel, ExitStatus, FrontDoorCredential } from '../candidates/types.js';
import { withCredential } from './credential.js';
import { StreamableHttpSession } from './streamable-http.js';

/** How long a broker gets to accept connections at its URL, unless told. */
const READY_TIMEOUT_MS = 10_000;
/** The first and the longest pause between attempts to connect while the broker starts. */
const FIRST_RETRY_MS = 10;
const LONGEST_RETRY_MS = 200;
/** The relay's first line, once the broker's URL accepts connections: the relay's own, never passed on. */
const RELAY_READY = '{"gauntlet-relay":"ready"}';

export interface HttpChannelOptions extends SpawnOptions {
  /** The broker's Streamable HTTP endpoint, e.g. http://127.0.0.1:PORT/mcp. */
  url: string;
  /**
   * The session's launch prefix (docs/network.md): the broker is started through it, and so is
   * a relay carrying the agent's lines to the URL, since the broker listens in an enclosure the
   * harness cannot reach.
   */
  launchPrefix?: readonly string[];
  readyTimeoutMs?: number;
  maxBodyBytes?: number;
  requestTimeoutMs?: number;
  /** Sent with every request the agent makes: its own credential to the broker, say. */
  headers?: Record<string, string>;
  /** The credential the broker's front door requires, which the adapter provides: sent with every request too, in place of a header of the same name. */
  credential?: FrontDoorCredential;
  /**
   * For a broker that draws its front door's credential as it starts and prints it (a session
   * token on its console, which its user copies): reads the credential from one line of its
   * stdout, or gives undefined. The first one found is sent as `credential` is; the agent's first
   * request waits for it, within `readyTimeoutMs`.
   */
  printedCredential?: (line: string) => FrontDoorCredential | undefined;
}


/** One attempt to open a TCP connection; true when it was accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Settles when `url`'s host and port accept a TCP connection, retrying with a growing pause;
 * rejects when `gone` settles first (the broker exited) or `ms` have passed.
 */
export async function waitListening(url: string, ms: number, gone: Promise<unknown>): Promise<void> {
  const { hostname, port, protocol } = new URL(url);
  const host = hostname.replace(/^\[|\]$/g, '');
  const portNumber = Number(port || (protocol === 'https:' ? 443 : 80));
  const deadline = Date.now() + ms;
  let exited = false;
  void gone.then(() => (exited = true));
  let pause = FIRST_RETRY_MS;
  for (;;) {
    if (await accepts(host, portNumber)) return;
    if (exited) throw new Error(`the broker exited before it accepted connections at ${url}`);
    if (Date.now() + pause > deadline) throw new Error(`nothing accepted connections at ${url} within ${ms} ms`);
    await Promise.race([new Promise((resolve) => setTimeout(resolve, pause)), gone]);
    pause = Math.min(pause * 2, LONGEST_RETRY_MS);
  }
}

/**
 * The agent's lines carried to `url` from this process: sends wait until the URL accepts
 * connections (or are dropped with a note when it never does), answers come back on `onLine`.
 */
function httpLines(url: string, gone: Promise<unknown>, options: Omit<HttpChannelOptions, 'url' | 'printedCredential' | keyof SpawnOptions> & { before?: Promise<void> }, note: (text: string) => void, failed: (reason: string) => void) {
  const handlers: Array<(line: string) => void> = [];
  const session = new StreamableHttpSession({
    url,
    onLine: (line) => {
      for (const handler of handlers) handler(line);
    },
    onNote: note,
    onFailure: failed,
    ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
    ...(options.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: options.requestTimeoutMs }),
    ...(options.headers === undefined ? {} : { headers: options.headers }),
  });
  const ready = Promise.all([waitListening(url, options.readyTimeoutMs ?? READY_TIMEOUT_MS, gone), options.before]).then(
    () => true,
    (error: Error) => {
      failed(error.message);
      return false;
    },
  );
  return {
    ready,
    send(line: string) {
      void ready.then((up) => (up ? session.send(line) : undefined));
    },
    onLine(handler: (line: string) => void) {
      handlers.push(handler);
    },
    end: () => session.end(),
    sessionId: () => session.id,
    arriving: () => session.arriving(),
  };
}

/** An HTTP channel, with the moment its broker began to accept connections. */
export interface HttpAgentChannel extends AgentChannel {
  /**
   * Settles (never rejects) once the broker accepts connections at its URL, or once the channel
   * has failed waiting for that. An adapter's start() awaits it, so the agent's bound on
   * initialize covers the handshake, not the broker's own start-up.
   */
  readonly ready: Promise<void>;
}

/**
 * Starts a broker that serves MCP over Streamable HTTP at `options.url`, in a process group of
 * its own as spawnChannel does, and carries the agent's newline-delimited JSON-RPC to it. The
 * channel counts as gone when the broker exits, or when it can carry nothing more (the URL never
 * accepted connections, a body over its cap): then the broker is stopped, so `exited` settles
 * with the reason. Ending its input (the agent hanging up) DELETEs the session and asks the broker
 * to stop (SIGTERM, its own shutdown, as an operator would); closing does that too, waits the same
 * grace as spawnChannel, then kills the group.
 */
export function spawnHttpChannel(command: string, args: string[], given: HttpChannelOptions): HttpAgentChannel {
  // The relay is handed its headers as it starts, before anything was printed.
  if (given.printedCredential !== undefined && given.launchPrefix !== undefined) throw new Error('a credential the broker prints cannot reach the relay into a network enclosure');
  const options = { ...given, headers: withCredential(given.headers ?? {}, given.credential) };
  const group = spawnGroup(...throughPrefix(options.launchPrefix, command, args), { ...options, stdoutToLog: true });
  let failure: string | undefined;
  let credential = options.credential;
  const printed =
    given.printedCredential === undefined
      ? undefined
      : credentialPrinted(group, given.printedCredential, options.readyTimeoutMs ?? READY_TIMEOUT_MS).then((found) => {
          credential = found;
          // In place: the agent's session and the front door's other clients hold this object.
          const headers = withCredential(options.headers, found);
          for (const name of Object.keys(options.headers)) delete options.headers[name];
          Object.assign(options.headers, headers);
        });
  const relay = options.launchPrefix === undefined ? undefined : startRelay(options);
  const direct = relay === undefined ? httpLines(options.url, group.exited, { ...options, ...(printed === undefined ? {} : { before: printed }) }, group.note, (reason) => fail(reason)) : undefined;
  const lines = relay ?? direct!;
  let hangingUp: Promise<void> | undefined;
  // The agent hangs up: its session is DELETEd and the broker asked to stop (SIGTERM), as an
  // operator stops a service. Nothing is killed, so what the broker leaves running is its own doing.
  const hangUp = (): Promise<void> => {
    hangingUp ??= lines.end().then(() => group.terminate());
    return hangingUp;
  };
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= hangUp().then(() => group.stop(() => {}));
    return closing;
  };
  function fail(reason: string): void {
    if (hangingUp !== undefined) return;
    failure = reason;
    group.note(reason);
    void close();
  }
  if (relay) void relay.exited.then(() => fail('the relay to the enclosure exited'));
  const exited: Promise<ExitStatus> = group.exited.then((status) => (failure === undefined || status.error !== undefined ? status : { ...status, error: failure }));
  return {
    ready: lines.ready.then(() => undefined),
    send: (line) => lines.send(line),
    onLine: (handler) => lines.onLine(handler),
    exited,
    pid: group.pid,
    close,
    endInput: () => void hangUp(),
    stderrTail: (maxBytes) => {
      const own = group.stderrTail(maxBytes);
      return relay ? `${own}${relay.stderrTail(maxBytes)}`.slice(-(maxBytes ?? 4_096)) : own;
    },
    // Inside an enclosure the relay holds the session, out of the harness's reach: its front door,
    // and what has arrived of a message still coming.
    ...(direct === undefined
      ? {}
      : {
          frontDoor: {
            url: options.url,
            sessionId: direct.sessionId,
            headers: options.headers,
            get credential() {
              return credential;
            },
          },
          arriving: direct.arriving,
        }),
  };
}

/**
 * The credential a broker prints on its stdout as it starts, from the first line `read` finds one
 * in; rejects when the broker exits or `ms` pass first. The output goes on to the broker's log.
 */
function credentialPrinted(group: GroupProcess, read: (line: string) => FrontDoorCredential | undefined, ms: number): Promise<FrontDoorCredential> {
  const stdout = group.child.stdout!;
  return new Promise((resolve, reject) => {
    let pending = '';
    const onData = (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      const found = lines.map(read).find((credential) => credential !== undefined);
      if (found !== undefined) settle(() => resolve(found));
    };
    const timer = setTimeout(() => settle(() => reject(new Error(`the broker printed no credential within ${ms} ms`))), ms);
    void group.exited.then(() => settle(() => reject(new Error('the broker exited before it printed its credential'))));
    const settle = (then: () => void) => {
      clearTimeout(timer);
      stdout.off('data', onData);
      then();
    };
    stdout.on('data', onData);
  });
}

/** The relay, started through the launch prefix: the same client, run inside the enclosure. */
function startRelay(options: HttpChannelOptions) {
  const relayArgs = [
    httpRelayEntry,
    options.url,
    String(options.readyTimeoutMs ?? READY_TIMEOUT_MS),
    String(options.maxBodyBytes ?? ''),
    String(options.requestTimeoutMs ?? ''),
    JSON.stringify(options.headers ?? {}),
  ];
  const channel = spawnChannel(...throughPrefix(options.launchPrefix, process.execPath, relayArgs), {
    cwd: options.cwd,
    env: process.env,
    stderrFile: `${options.stderrFile}.relay`,
  });
  const handlers: Array<(line: string) => void> = [];
  let signalled!: (up: boolean) => void;
  const ready = new Promise<boolean>((resolve) => (signalled = resolve));
  void channel.exited.then(() => signalled(false));
  // Its first line says it reached the URL; every later one is the broker's.
  let first = true;
  channel.onLine((line) => {
    if (first) {
      first = false;
      signalled(line === RELAY_READY);
      if (line === RELAY_READY) return;
    }
    for (const handler of handlers) handler(line);
  });
  return {
    ready,
    send: (line: string) => channel.send(line),
    onLine: (handler: (line: string) => void) => handlers.push(handler),
    exited: channel.exited,
    stderrTail: (maxBytes?: number) => channel.stderrTail?.(maxBytes) ?? '',
    /** Its input ended, it DELETEs the session and leaves; close() bounds the wait. */
    end: () => channel.close(),
  };
}

/**
 * The relay's process: `node http-channel.js URL READY_MS [MAX_BODY] [REQUEST_MS] [HEADERS_JSON]`. Lines on stdin
 * are the agent's, answers go to stdout, notes to stderr; at the end of stdin it ends the session.
 */
async function relayMain(argv: string[]): Promise<void> {
  const [url, readyMs, maxBody, requestMs, headers] = argv;
  if (url === undefined) {
    process.stderr.write('usage: http-channel.js URL READY_MS [MAX_BODY_BYTES] [REQUEST_TIMEOUT_MS] [HEADERS_JSON]\n');
    process.exit(2);
  }
  const note = (text: string) => process.stderr.write(`[gauntlet relay] ${text}\n`);
  const lines = httpLines(
    url,
    new Promise(() => {}),
    {
      readyTimeoutMs: Number(readyMs) || READY_TIMEOUT_MS,
      ...(maxBody ? { maxBodyBytes: Number(maxBody) } : {}),
      ...(requestMs ? { requestTimeoutMs: Number(requestMs) } : {}),
      ...(headers ? { headers: JSON.parse(headers) as Record<string, string> } : {}),
    },
    note,
    (reason) => {
      note(reason);
      process.exit(1);
    },
  );
  lines.onLine((line) => process.stdout.write(`${line}\n`));
  void lines.ready.then((up) => up && process.stdout.write(`${RELAY_READY}\n`));
  const input = createInterface({ input: process.stdin, crlfDelay: Infinity });
  input.on('line', (line) => lines.send(line));
  await new Promise<void>((resolve) => input.once('close', resolve));
  await lines.end();
  process.exit(0);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) void relayMain(process.argv.slice(2));
