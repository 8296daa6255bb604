// The server as an operating-system process: started as the process guards plan it (in a
// process group of its own, with a parent-death signal and a watcher for that group) with a
// minimal environment, and stopped as a whole group, descendants included. A server's children
// would otherwise survive it (the SDK's close() signals only the direct child).

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Readable } from 'node:stream';
import { UpstreamError } from '../errors.js';
import { Outbox } from '../wire/outbox.js';
import type { LaunchPlan, ProcessGuard } from '../guards/types.js';
import { childEnv } from './env.js';
import { reaper, signalGroup, signalProcess, type Signaller } from './reaper.js';
import { GroupWatcher } from './watcher.js';
import type { ProcessServerSpec } from '../types.js';

/** How much of the server's stderr is kept for diagnostics; the rest is dropped as it arrives. */
const STDERR_TAIL_BYTES = 4096;
/** How long a signalled group gets to exit before the next, harder step. */
const GRACE_MS = 2000;

export class ServerProcess {
  /** Resolves, never rejects, with how the server's own process ended. */
  readonly exited: Promise<string>;
  private tail = Buffer.alloc(0);
  private closing: Promise<void> | undefined;
  private readonly outbox = new Outbox((text) => {
    if (this.child.stdin.writable) this.child.stdin.write(text);
  });

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    readonly pid: number,
    /** Its whole group when it leads one; else (own-process-group disabled) only itself. */
    private readonly signal: Signaller,
    private readonly watcher: GroupWatcher | undefined,
  ) {
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => resolve(signal !== null ? `was killed by ${signal}` : `exited with code ${code}`));
    });
    // Only the last bytes are copied, whatever the chunk's size: a flood of stderr costs nothing kept.
    child.stderr.on('data', (chunk: Buffer) => {
      const fresh = chunk.subarray(Math.max(0, chunk.length - STDERR_TAIL_BYTES));
      const kept = this.tail.subarray(Math.max(0, this.tail.length + fresh.length - STDERR_TAIL_BYTES));
      this.tail = Buffer.concat([kept, fresh]);
    });
    // A write to a server that has died fails with EPIPE; the exit event already reports it.
    child.stdin.on('error', () => undefined);
    reaper.track(pid, () => this.close(), signal);
  }

  /** Starts the server; rejects with an UpstreamError when it cannot be started at all. */
  static start(spec: ProcessServerSpec, guards: readonly ProcessGuard[]): Promise<ServerProcess> {
    const unguarded: LaunchPlan = { command: spec.command, args: spec.args, ownGroup: false, watchGroup: false };
    const plan = guards.reduce((planned: LaunchPlan, guard) => guard.launch(planned), unguarded);
    const child = spawn(plan.command, [...plan.args], {
      env: childEnv(spec, process.env),
      stdio: ['pipe', 'pipe', 'pipe'],
      // detached is setsid(): a session and process group of its own, led by the server.
      detached: plan.ownGroup,
    });
    return new Promise((resolve, reject) => {
      child.once('error', (err) => reject(new UpstreamError(`cannot start server "${spec.id}": ${err.message}`)));
      child.once('spawn', () => {
        const pid = child.pid;
        if (pid === undefined) {
          reject(new UpstreamError(`cannot start server "${spec.id}": no pid`));
          return;
        }
        const signal: Signaller = plan.ownGroup ? (sig) => signalGroup(pid, sig) : (sig) => signalProcess(pid, sig);
        // Only a group the server leads can be watched: without one, its pid names no group.
        const watcher = plan.ownGroup && plan.watchGroup ? GroupWatcher.start(pid) : undefined;
        resolve(new ServerProcess(child, pid, signal, watcher));
      });
    });
  }

  get stdout(): Readable {
    return this.child.stdout;
  }

  /** Held to the end of this run of the broker's code (wire/outbox.ts), so that calls sent together leave in one write. */
  write(line: string): void {
    this.outbox.push(line);
  }

  /**
   * What the server has left unread beyond its pipe: the bytes written and not yet taken, and the
   * lines held for the next write.
   */
  queuedBytes(): number {
    return this.child.stdin.writableLength + this.outbox.heldLength();
  }

  /** The last bytes the server wrote to stderr, decoded leniently: it is only ever shown. */
  stderrTail(): string {
    return this.tail.toString('utf8');
  }

  /** Stops the whole group. Safe to call more than once and while requests are in flight. */
  close(): Promise<void> {
    this.closing ??= this.stop();
    return this.closing;
  }

  private async stop(): Promise<void> {
    this.child.stdin.destroy();
    this.signal('SIGTERM');
    await settlesWithin(this.exited, GRACE_MS);
    // A descendant may ignore SIGTERM, or the server may have exited and left children behind.
    if (this.signal(0)) {
      this.signal('SIGKILL');
      await settlesWithin(this.exited, GRACE_MS);
    }
    // While anything is left (a process stuck in the kernel), the broker's exit kills it again,
    // and the watcher stays to kill it should the broker be killed.
    if (!this.signal(0)) {
      reaper.untrack(this.pid);
      this.watcher?.dismiss();
    }
  }
}

/**
 * Whether `promise` settles within `ms` (a non-finite `ms`: whenever it does). A timer past
 * 2^31 - 1 ms would fire after 1 ms, so an unbounded wait is awaited without one.
 */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  if (!Number.isFinite(ms)) {
    await promise;
    return true;
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), Math.max(0, ms));
  });
  const outcome = await Promise.race([promise.then(() => 'settled' as const), timeout]);
  clearTimeout(timer);
  return outcome === 'settled';
}
