import { spawnChannel, spawnGroup, throughPrefix, type SpawnOptions } from '../candidates/child.js';
import type { AgentChannel, ExitStatus, FrontDoorCredential } from '../candidates/types.js';
import { legacySseRelayEntry } from '../paths.js';
import { withCredential } from './credential.js';

export interface LegacySseChannelOptions extends SpawnOptions {
  /** The broker's event-stream endpoint, e.g. http://127.0.0.1:PORT/mcp. */
  url: string;
  /** The session's launch prefix (docs/network.md): the broker and the relay are started through it. */
  launchPrefix?: readonly string[];
  /** How long the broker gets to accept the event stream. */
  readyTimeoutMs: number;
  /**
   * Settles when the broker is ready for a client (by its own word: a broker may accept
   * connections, and refuse the stream, before it is); the relay opens the stream only then.
   */
  ready(): Promise<void>;
  /** The credential the broker requires of its clients, which the adapter provides: the relay sends it with the stream's GET and every POST. */
  credential?: FrontDoorCredential;
}

/**
 * Starts a broker that serves MCP over the HTTP+SSE transport of protocol revision 2024-11-05 at
 * `options.url`, in a process group of its own, and once `options.ready()` has settled carries
 * the agent's lines to it through the relay (harness/agent/legacy-sse-relay.ts), a process of the
 * harness's started through the same launch prefix. The channel is gone when the broker exits, or when the relay can carry nothing
 * more (the stream never opened or ended): then the broker is stopped. Closing ends the relay's
 * input, asks the broker to stop (SIGTERM, its own shutdown), waits the grace spawnChannel gives,
 * then kills the group.
 */
export async function spawnLegacySseChannel(command: string, args: string[], options: LegacySseChannelOptions): Promise<AgentChannel> {
  const broker = spawnGroup(...throughPrefix(options.launchPrefix, command, args), { ...options, stdoutToLog: true });
  await options.ready();
  const relay = spawnChannel(...throughPrefix(options.launchPrefix, process.execPath, [legacySseRelayEntry, options.url, String(options.readyTimeoutMs), JSON.stringify(withCredential({}, options.credential))]), {
    cwd: options.cwd,
    env: process.env,
    stderrFile: `${options.stderrFile}.relay`,
  });
  let failure: string | undefined;
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      await relay.close();
      await broker.stop(() => broker.terminate());
    })();
    return closing;
  };
  void relay.exited.then((status) => {
    if (closing !== undefined) return;
    failure = `the event-stream relay exited (${status.code ?? status.signal}): ${relay.stderrTail?.(300).trim() ?? ''}`;
    broker.note(failure);
    void close();
  });
  const exited: Promise<ExitStatus> = broker.exited.then((status) => (failure === undefined || status.error !== undefined ? status : { ...status, error: failure }));
  return {
    send: (line) => relay.send(line),
    onLine: (handler) => relay.onLine(handler),
    exited,
    pid: broker.pid,
    close,
    stderrTail: (maxBytes = 4_096) => `${broker.stderrTail(maxBytes)}${relay.stderrTail?.(maxBytes) ?? ''}`.slice(-maxBytes),
  };
}
