// One time bound shared by several requests (a listing's pages): each request is given what is
// left of it. Read from process.hrtime, monotonic as performance.now() is: the first use of the
// `performance` global loads eleven of Node's modules, about 2 ms of every broker's start.

const nowMs = (): number => Number(process.hrtime.bigint()) / 1e6;

/** From now, `timeoutMs` shared: each call gives what is left, in whole milliseconds, never under 1. */
export function sharedDeadline(timeoutMs: number): () => number {
  const deadline = nowMs() + timeoutMs;
  return () => Math.max(1, Math.ceil(deadline - nowMs()));
}

/** A signal that bounds one piece of work, and what ends it once the work is done. */
export interface Bounded {
  readonly signal: AbortSignal;
  /** Clears the timer and stops listening to the other signals: nothing of it outlives the work. */
  readonly done: () => void;
}

/**
 * Aborted when any of `signals` is, or after `timeoutMs` with a TimeoutError. Not
 * `AbortSignal.any([...signals, AbortSignal.timeout(timeoutMs)])`: on Node 20 the timeout signal in
 * such a composite is held only weakly, and a garbage collection before it fires takes it away
 * (nodejs/node#57736); the work it bounds then waits forever. Here the timer is held until it fires
 * or `done` clears it, and a long-lived signal keeps no listener of each finished piece of work.
 */
export function bounded(timeoutMs: number, signals: readonly AbortSignal[]): Bounded {
  const controller = new AbortController();
  const abortWith = (reason: unknown) => {
    done();
    controller.abort(reason);
  };
  const listeners = signals.map((signal) => [signal, () => abortWith(signal.reason)] as const);
  const timer = setTimeout(() => abortWith(new DOMException(`timed out after ${timeoutMs} ms`, 'TimeoutError')), timeoutMs);
  function done(): void {
    clearTimeout(timer);
    for (const [signal, listener] of listeners) signal.removeEventListener('abort', listener);
  }
  for (const [signal, listener] of listeners) {
    if (signal.aborted) {
      abortWith(signal.reason);
      break;
    }
    // Not `once`: whichever signal aborts first, done() takes every listener away.
    signal.addEventListener('abort', listener);
  }
  return { signal: controller.signal, done };
}
