/**
 * Containment of last resort: everything the harness starts (process groups, an enclosure's
 * holder, a scenario's private folder) is held here with a synchronous way to end it, so that
 * nothing outlives the harness, whether it exits, is interrupted (SIGINT, SIGTERM) or fails.
 *
 * On the first signal every held process is killed at once, which makes the scenario in progress
 * end quickly, and the run's interrupt listener is told so it can stop, clean up and write its
 * partial report; with no listener (a test, another command) the process exits at once. A second
 * signal, or a listener that has not finished within FORCED_EXIT_MS, ends the process. Whatever
 * is still held when the process exits (a folder, a process started meanwhile) is ended then.
 *
 * The handlers are installed only when something is first held, or a listener is set: a process
 * that starts nothing (`gauntlet serve`, a hostile server) keeps its own signal handling.
 */

/** What is held: a process is ended on interrupt and at exit, a folder at exit (after the scenario's own cleanup had its chance). */
export type HeldKind = 'process' | 'folder';

const held = new Map<() => void, HeldKind>();
let interrupted: NodeJS.Signals | undefined;
let listener: ((signal: NodeJS.Signals) => void) | undefined;
let installed = false;

/** How long the run gets to clean up and write its report after a signal before it is ended. */
export const FORCED_EXIT_MS = 15_000;

/** The exit code of an interrupted run (docs/ci.md). */
export const INTERRUPTED_EXIT = 2;

function end(kinds: readonly HeldKind[]): void {
  for (const [release, kind] of [...held]) {
    if (!kinds.includes(kind)) continue;
    held.delete(release);
    try {
      release();
    } catch {
      // Gone already, or beyond reach: the others are still ended.
    }
  }
}

function onSignal(signal: NodeJS.Signals): void {
  if (interrupted !== undefined || listener === undefined) {
    end(['process', 'folder']);
    process.exit(INTERRUPTED_EXIT);
  }
  interrupted = signal;
  end(['process']);
  setTimeout(() => {
    end(['process', 'folder']);
    process.exit(INTERRUPTED_EXIT);
  }, FORCED_EXIT_MS).unref();
  listener(signal);
}

function install(): void {
  if (installed) return;
  installed = true;
  process.once('exit', () => end(['process', 'folder']));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, onSignal);
}

/**
 * Holds something the harness started until the returned function is called (once it has been
 * ended the ordinary way). After an interrupt a process is ended at once rather than held.
 */
export function hold(kind: HeldKind, release: () => void): () => void {
  install();
  if (interrupted !== undefined && kind === 'process') {
    release();
    return () => undefined;
  }
  held.set(release, kind);
  return () => held.delete(release);
}

/** Tells `onInterrupt` of the first SIGINT or SIGTERM, after every held process is killed. */
export function onInterrupt(onInterrupted: (signal: NodeJS.Signals) => void): void {
  listener = onInterrupted;
  install();
}

/** The signal that interrupted the run, if one did. */
export const interruptedBy = (): NodeJS.Signals | undefined => interrupted;
