// The broker's MCP session with the agent on its own stdin/stdout. The broker answers the
// handshake and the listing itself from what Load decided, and forwards only calls the call
// guards allow. Everything is read and written with the broker's own JSON reader and writer, so
// ids, arguments and results pass through exactly as sent.

import type { Readable, Writable } from 'node:stream';
import type { CallGuard } from './guards/types.js';
import { BROKER_NAME, BROKER_VERSION, LATEST_PROTOCOL_VERSION, isSupportedProtocolVersion } from './identity.js';
import { ERROR, brokerError, errorLine, parseMessage, resultLine } from './jsonrpc.js';
import { LineSplitter } from './lines.js';
import { member, object, plain, stringValue, type JsonValue } from './json/tree.js';
import type { RegisteredTool } from './load.js';
import type { Requester } from './upstream/connection.js';

export interface SessionOptions {
  readonly tools: readonly RegisteredTool[];
  readonly callGuards: readonly CallGuard[];
  /** The timeout for a call no registered tool names (registered-calls-only disabled). */
  readonly defaultCallTimeoutMs: number;
  readonly upstream: Requester;
  readonly send: (line: string) => void;
}

export class Session {
  private readonly byName: ReadonlyMap<string, RegisteredTool>;
  private readonly registered: ReadonlySet<string>;
  /** Fixed at Load: the server's later list_changed notices are not followed. */
  private readonly toolList: JsonValue;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly options: SessionOptions) {
    this.byName = new Map(options.tools.map((tool) => [tool.name, tool]));
    this.registered = new Set(this.byName.keys());
    this.toolList = object([
      [
        'tools',
        {
          kind: 'array',
          items: options.tools.map(({ name, shown }) =>
            object([
              ['name', plain(name)],
              ['description', shown.description === undefined ? undefined : plain(shown.description)],
              ['inputSchema', shown.inputSchema],
              ['annotations', shown.annotations],
            ]),
          ),
        },
      ],
    ]);
  }

  handleLine(line: string): void {
    const message = parseMessage(line);
    if (message.kind === 'unreadable') {
      this.refuseUnreadable(message.code, message.problem);
      return;
    }
    // Notifications need no answer, and the broker never sends the agent a request to answer.
    if (message.kind !== 'request') return;
    const { id, method, params } = message;
    switch (method) {
      case 'initialize':
        this.options.send(resultLine(id, initializeResult(params)));
        return;
      case 'ping':
        this.options.send(resultLine(id, object([])));
        return;
      case 'tools/list':
        this.options.send(resultLine(id, this.toolList));
        return;
      case 'tools/call': {
        const call = this.call(id, params);
        this.inFlight.add(call);
        void call.finally(() => this.inFlight.delete(call));
        return;
      }
      default:
        this.options.send(errorLine(id, brokerError(ERROR.methodNotFound, `Method not found: ${method}`)));
    }
  }

  /** Answers a line that held no readable request; without an id, the answer's id is null. */
  refuseUnreadable(code: number, problem: string): void {
    this.options.send(errorLine(plain(null), brokerError(code, `Invalid message: ${problem}`)));
  }

  /** Resolves once every call already received has been answered. */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private async call(id: JsonValue, params: JsonValue | undefined): Promise<void> {
    const { send, upstream } = this.options;
    const name = params?.kind === 'object' ? stringValue(member(params, 'name')) : undefined;
    const args = params?.kind === 'object' ? member(params, 'arguments') : undefined;
    if (name === undefined || (args !== undefined && args.kind !== 'object')) {
      send(errorLine(id, brokerError(ERROR.invalidParams, 'Invalid params: tools/call needs a string name and object arguments')));
      return;
    }
    for (const guard of this.options.callGuards) {
      const refusal = guard.check(name, this.registered);
      if (refusal !== null) {
        send(errorLine(id, brokerError(ERROR.invalidParams, refusal)));
        return;
      }
    }
    const timeoutMs = this.byName.get(name)?.callTimeoutMs ?? this.options.defaultCallTimeoutMs;
    try {
      const forwarded = object([['name', plain(name)], ['arguments', args]]);
      const reply = await upstream.request('tools/call', forwarded, timeoutMs, `tools/call "${name}"`);
      send(reply.ok ? resultLine(id, reply.result) : errorLine(id, reply.error));
    } catch (err) {
      send(errorLine(id, brokerError(ERROR.upstream, (err as Error).message)));
    }
  }
}

function initializeResult(params: JsonValue | undefined): JsonValue {
  const requested = params?.kind === 'object' ? stringValue(member(params, 'protocolVersion')) : undefined;
  return plain({
    protocolVersion: requested !== undefined && isSupportedProtocolVersion(requested) ? requested : LATEST_PROTOCOL_VERSION,
    capabilities: { tools: {} },
    serverInfo: { name: BROKER_NAME, version: BROKER_VERSION },
  });
}

/** Runs the session until the agent closes stdin (or stdout), then waits for calls in flight. */
export async function runSession(input: Readable, output: Writable, options: Omit<SessionOptions, 'send'>): Promise<void> {
  let reading = true;
  let writing = true;
  const session = new Session({
    ...options,
    send: (line) => {
      if (writing) output.write(`${line}\n`);
    },
  });
  const lines = new LineSplitter(
    (line) => session.handleLine(line),
    (problem) => session.refuseUnreadable(ERROR.invalidRequest, problem),
  );
  // Once the session is ending, nothing more the agent sends is acted on.
  input.on('data', (chunk: Buffer) => {
    if (reading) lines.push(chunk);
  });
  await new Promise<void>((resolve) => {
    input.once('end', resolve);
    input.once('error', resolve);
    output.once('error', () => {
      writing = false; // the agent stopped reading: nobody is left to answer
      resolve();
    });
  });
  reading = false;
  await session.settled();
}
