import { spawn, type ChildProcess } from 'node:child_process';
import { throughPrefix } from '../candidates/child.js';
import type { UpstreamCommand } from '../candidates/types.js';
import { hold } from '../observe/containment.js';
import type { Ledger } from '../observe/ledger.js';

/** How often the ledger is read while the server comes up: readiness, not a judged trigger. */
const POLL_MS = 20;

/**
 * The scenario's server when it speaks HTTP. The harness runs it, listening on 127.0.0.1 or in a
 * network enclosure, so the candidate only ever dials it (or refuses to): every connection it
 * accepts is in the ledger.
 */
export class HttpServer {
  private constructor(
    private readonly child: ChildProcess,
    private readonly exited: Promise<void>,
    readonly port: number,
  ) {}

  /**
   * Starts the kit with `--http` on every address of `listen` and waits until it has written the
   * port it listens on; `prefix` starts it inside a network enclosure.
   */
  static async start(command: UpstreamCommand, ledger: Ledger, timeoutMs: number, listen: readonly string[], prefix: readonly string[] | undefined): Promise<HttpServer> {
    const addresses = listen.flatMap((address) => ['--listen', address]);
    // A group of its own, so stopping it stops anything it started.
    const child = spawn(...throughPrefix(prefix, command.command, [...command.args, '--http', ...addresses]), { stdio: 'ignore', detached: true });
    const unhold = hold('process', () => stop(child, 'SIGKILL'));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve())).then(unhold);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const listening = ledger.read().find((record) => record.ev === 'listening' && record.pid === child.pid);
      if (listening?.ev === 'listening') return new HttpServer(child, exited, listening.port);
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`the HTTP server exited (${child.exitCode ?? child.signalCode}) before it listened: ${command.args.join(' ')}`);
      }
      if (Date.now() > deadline) {
        stop(child);
        await exited;
        throw new Error(`the HTTP server did not start listening within ${timeoutMs} ms`);
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  async stop(): Promise<void> {
    stop(this.child);
    await this.exited;
  }
}

function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}
