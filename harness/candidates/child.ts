import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { execa } from 'execa';
import { hold } from '../observe/containment.js';
import type { AgentChannel, ExitStatus } from './types.js';

/** Longest line accepted from a candidate; past it the channel is closed, never read on. */
const MAX_LINE = 256 * 1024 * 1024;
/**
 * How long a process gets to stop on its own after its stdin closes, before SIGKILL. Close-step
 * expectations judge within 2,500 ms, inside this grace, so they see the candidate's own doing.
 */
const GRACE_MS = 3_000;

/** How much of a process's stderr is kept in memory besides the file; a tail asked for is at most this. */
export const STDERR_TAIL_BYTES = 64 * 1024;
/** The tail a caller gets when it names no size. */
const DEFAULT_TAIL_BYTES = 4_096;

/** Each live group the harness started, with what stops holding it once it is killed the ordinary way. */
const liveGroups = new Map<number, () => void>();

/** A group the harness started is held (observe/containment.ts): whatever happens to the harness, it dies with it. */
function track(pgid: number): void {
  liveGroups.set(pgid, hold('process', () => killGroup(pgid)));
}

/** The group is killed and no longer held. */
function release(pgid: number): void {
  killGroup(pgid);
  liveGroups.get(pgid)?.();
  liveGroups.delete(pgid);
}

export function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // Already gone: nothing to contain.
  }
}

export interface SpawnOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** File that receives the process's stderr, kept for the report. */
  stderrFile: string;
}

/**
 * The last `limit` bytes written to a stream, kept in chunks dropped from the front once the
 * rest holds `limit` bytes: it never holds twice the limit, and never gives more than it.
 */
class Tail {
  private chunks: Buffer[] = [];
  private length = 0;

  constructor(private readonly limit: number) {}

  push(chunk: Buffer): void {
    const kept = chunk.length > this.limit ? chunk.subarray(chunk.length - this.limit) : chunk;
    this.chunks.push(kept);
    this.length += kept.length;
    while (this.length - (this.chunks[0]?.length ?? 0) >= this.limit) this.length -= this.chunks.shift()?.length ?? 0;
  }

  /** At most the last `maxBytes` bytes as text, starting at a whole UTF-8 character. */
  last(maxBytes: number): string {
    const all = Buffer.concat(this.chunks, this.length);
    let start = Math.max(0, all.length - Math.min(this.limit, Math.max(0, maxBytes)));
    // Continuation bytes of a character the cut split: decoded they would grow into U+FFFD.
    while (start < all.length && ((all[start] ?? 0) & 0xc0) === 0x80) start++;
    return all.subarray(start).toString('utf8');
  }
}

function exitOf(child: ChildProcess): Promise<ExitStatus> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve({ code: child.exitCode, signal: child.signalCode });
      return;
    }
    child.once('exit', (code, signal) => resolve({ code, signal }));
    // A process that never started (a missing binary, a directory it cannot enter) has no exit
    // code; the cause is the error's message.
    child.once('error', (error) => resolve({ code: null, signal: null, error: error.message }));
  });
}

/** A process started in a group of its own, its stderr kept in a file and in memory. */
export interface GroupProcess {
  readonly child: ChildProcess;
  /** The group leader's pid, which is also the group's id. */
  readonly pid: number | undefined;
  readonly exited: Promise<ExitStatus>;
  stderrTail(maxBytes?: number): string;
  /** A line of the harness's own, kept with the process's stderr (marked as the harness's). */
  note(text: string): void;
  /**
   * Asks the process to leave by `ask` (ending its stdin, a signal), waits a bounded grace period
   * for it to exit, then kills the whole group, so descendants it left behind die too, and
   * flushes the stderr file. Runs once; later calls get the same promise.
   */
  stop(ask: () => void): Promise<void>;
  /** Asks the leader to shut down by SIGTERM, as an operator stops a service; nothing is killed. */
  terminate(): void;
}

/**
 * Starts a process in its own process group, with stdin and stdout piped for the caller and
 * stderr (and stdout too, with `stdoutToLog`: a broker reached over HTTP logs there) kept in
 * `options.stderrFile` and in an in-memory tail.
 */
export function spawnGroup(command: string, args: string[], options: SpawnOptions & { stdoutToLog?: boolean }): GroupProcess {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  const pgid = child.pid;
  if (pgid !== undefined) track(pgid);
  const log = createWriteStream(options.stderrFile);
  const tail = new Tail(STDERR_TAIL_BYTES);
  for (const stream of options.stdoutToLog ? [child.stderr, child.stdout] : [child.stderr]) {
    stream?.pipe(log, { end: false });
    stream?.on('data', (chunk: Buffer) => tail.push(chunk));
  }
  child.stdin?.on('error', () => {
    // The other side closed its stdin; its exit is reported through `exited`.
  });

  const exited = exitOf(child);
  const streamsClosed = new Promise<void>((resolve) => {
    child.once('close', () => resolve());
    child.once('error', () => resolve());
  });
  let stopping: Promise<void> | undefined;
  return {
    child,
    pid: pgid,
    exited,
    stderrTail: (maxBytes = DEFAULT_TAIL_BYTES) => tail.last(maxBytes),
    note(text) {
      const line = Buffer.from(`[gauntlet] ${text}\n`);
      tail.push(line);
      if (log.writable) log.write(line);
    },
    stop(ask) {
      stopping ??= (async () => {
        ask();
        const timer = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), GRACE_MS).unref());
        await Promise.race([exited, timer]);
        if (pgid !== undefined) release(pgid);
        await exited;
        // Everything it wrote on stderr is in the file once its streams have closed; a descendant
        // that left the group still holding them gets the grace period, no more.
        await Promise.race([streamsClosed, new Promise<void>((resolve) => setTimeout(resolve, GRACE_MS).unref())]);
        await new Promise<void>((resolve) => log.end(resolve));
      })();
      return stopping;
    },
    terminate() {
      try {
        if (pgid !== undefined) process.kill(pgid, 'SIGTERM');
      } catch {
        // Already gone.
      }
    },
  };
}

/**
 * Starts a process in its own process group and frames its stdout into lines. Closing ends its
 * stdin, waits a bounded grace period, then kills the whole group.
 */
export function spawnChannel(command: string, args: string[], options: SpawnOptions): AgentChannel {
  const group = spawnGroup(command, args, options);
  const { child } = group;

  const handlers: Array<(line: string) => void> = [];
  // Pieces of the line still being read: joined once its newline arrives, so a long line costs
  // one pass rather than one rescan per chunk.
  let pieces: string[] = [];
  let pendingLength = 0;
  const emit = (line: string) => {
    const clean = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (clean.length > 0) for (const handler of handlers) handler(clean);
  };
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    let start = 0;
    let newline = chunk.indexOf('\n');
    while (newline >= 0) {
      pieces.push(chunk.slice(start, newline));
      emit(pieces.join(''));
      pieces = [];
      pendingLength = 0;
      start = newline + 1;
      newline = chunk.indexOf('\n', start);
    }
    if (start < chunk.length) {
      pieces.push(chunk.slice(start));
      pendingLength += chunk.length - start;
    }
    if (pendingLength > MAX_LINE) {
      pieces = [];
      pendingLength = 0;
      void close();
    }
  });

  const close = (): Promise<void> => group.stop(() => child.stdin?.end());

  return {
    send(line) {
      if (child.stdin?.writable) child.stdin.write(`${line}\n`);
    },
    onLine(handler) {
      handlers.push(handler);
    },
    exited: group.exited,
    pid: group.pid,
    close,
    endInput() {
      child.stdin?.end();
    },
    stderrTail: group.stderrTail,
    arriving: () => pieces.join(''),
  };
}

/**
 * Runs a command to completion within a bound, in a process group of its own: once it has exited,
 * or been killed for overstaying, the whole group is killed, so descendants it left behind die
 * too. Its stdin is empty and its stdout discarded; its stderr goes to the file.
 */
export async function runToExit(
  command: string,
  args: string[],
  options: SpawnOptions & { timeoutMs: number },
): Promise<ExitStatus & { timedOut: boolean }> {
  const subprocess = execa(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    extendEnv: false,
    detached: true,
    stdin: 'ignore',
    stdout: 'ignore',
    stderr: { file: options.stderrFile },
    timeout: options.timeoutMs,
    killSignal: 'SIGKILL',
    reject: false,
  });
  const pgid = subprocess.pid;
  if (pgid !== undefined) track(pgid);
  const result = await subprocess;
  if (pgid !== undefined) release(pgid);
  const status = { code: result.exitCode ?? null, signal: result.signal ?? null, timedOut: result.timedOut };
  // Neither a code nor a signal: it never ran (a missing binary, a directory it cannot enter).
  return status.code === null && status.signal === null ? { ...status, error: result.originalMessage ?? result.shortMessage } : status;
}

/** A command line to start through the session's launch prefix (docs/network.md), when it has one. */
export function throughPrefix(prefix: readonly string[] | undefined, command: string, args: string[]): [string, string[]] {
  const [first, ...rest] = prefix ?? [];
  return first === undefined ? [command, args] : [first, [...rest, command, ...args]];
}
