// One time bound shared by several requests (a listing's pages): each request is given what is
// left of it. Read from process.hrtime, monotonic as performance.now() is: the first use of the
// `performance` global loads eleven of Node's modules, about 2 ms of every broker's start.

const nowMs = (): number => Number(process.hrtime.bigint()) / 1e6;

/** From now, `timeoutMs` shared: each call gives what is left, in whole milliseconds, never under 1. */
export function sharedDeadline(timeoutMs: number): () => number {
  const deadline = nowMs() + timeoutMs;
  return () => Math.max(1, Math.ceil(deadline - nowMs()));
}
