import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import type { AgentChannel, ExitStatus } from './types.js';

/** Longest line accepted from a candidate; past it the channel is closed, never read on. */
const MAX_LINE = 256 * 1024 * 1024;
/**
 * How long a process gets to stop on its own after its stdin closes, before SIGKILL. Close-step
 * expectations judge within 2,500 ms, inside this grace, so they see the candidate's own doing.
 */
const GRACE_MS = 3_000;

const liveGroups = new Set<number>();

/** Containment: whatever happens to the harness, the groups it started die with it. */
function killAllGroups(): void {
  for (const pgid of liveGroups) killGroup(pgid);
}
process.once('exit', killAllGroups);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killAllGroups();
    process.exit(130);
  });
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

function exitOf(child: ChildProcess): Promise<ExitStatus> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve({ code: child.exitCode, signal: child.signalCode });
      return;
    }
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', () => resolve({ code: null, signal: null }));
  });
}

/**
 * Starts a process in its own process group and frames its stdout into lines. Closing ends its
 * stdin, waits a bounded grace period, then kills the whole group, so descendants the process
 * left behind die too.
 */
export function spawnChannel(command: string, args: string[], options: SpawnOptions): AgentChannel {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  const pgid = child.pid;
  if (pgid !== undefined) liveGroups.add(pgid);
  const stderr = createWriteStream(options.stderrFile);
  child.stderr?.pipe(stderr);
  child.stdin?.on('error', () => {
    // The other side closed its stdin; its exit is reported through `exited`.
  });

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

  const exited = exitOf(child);
  const streamsClosed = new Promise<void>((resolve) => {
    child.once('close', () => resolve());
    child.once('error', () => resolve());
  });
  let closing: Promise<void> | undefined;
  function close(): Promise<void> {
    closing ??= (async () => {
      child.stdin?.end();
      const timer = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), GRACE_MS).unref());
      await Promise.race([exited, timer]);
      if (pgid !== undefined) {
        killGroup(pgid);
        liveGroups.delete(pgid);
      }
      await exited;
      // Everything it wrote on stderr is in the file once its streams have closed; a descendant
      // that left the group still holding them gets the grace period, no more.
      await Promise.race([streamsClosed, new Promise<void>((resolve) => setTimeout(resolve, GRACE_MS).unref())]);
      await new Promise<void>((resolve) => stderr.end(resolve));
    })();
    return closing;
  }

  return {
    send(line) {
      if (child.stdin?.writable) child.stdin.write(`${line}\n`);
    },
    onLine(handler) {
      handlers.push(handler);
    },
    exited,
    pid: pgid,
    close,
    endInput() {
      child.stdin?.end();
    },
  };
}

/** Runs a command to completion within a bound; the whole group is killed if it overstays. */
export async function runToExit(
  command: string,
  args: string[],
  options: SpawnOptions & { timeoutMs: number },
): Promise<ExitStatus & { timedOut: boolean }> {
  const channel = spawnChannel(command, args, options);
  let timedOut = false;
  const timer = new Promise<void>((resolve) =>
    setTimeout(() => {
      timedOut = true;
      resolve();
    }, options.timeoutMs).unref(),
  );
  const status = await Promise.race([channel.exited, timer.then(() => undefined)]);
  await channel.close();
  return { ...(status ?? (await channel.exited)), timedOut };
}

/** A command line to start through the session's launch prefix (docs/network.md), when it has one. */
export function throughPrefix(prefix: readonly string[] | undefined, command: string, args: string[]): [string, string[]] {
  const [first, ...rest] = prefix ?? [];
  return first === undefined ? [command, args] : [first, [...rest, command, ...args]];
}
