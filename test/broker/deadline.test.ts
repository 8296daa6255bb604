// The bounds of src/upstream/deadline.ts: the one a listing's pages share (each request gets what
// is left), and the signal that bounds one request and must fire even after a garbage collection.

import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { bounded, sharedDeadline } from '../../src/upstream/deadline.js';
import { collectGarbage } from '../collect-garbage.js';

describe('a shared deadline', () => {
  it('gives each request what is left, in whole milliseconds, never more than the whole', () => {
    const remaining = sharedDeadline(5000);
    const first = remaining();
    const second = remaining();
    expect(Number.isInteger(first) && Number.isInteger(second)).toBe(true);
    expect(first).toBeLessThanOrEqual(5000);
    expect(second).toBeLessThanOrEqual(first);
  });

  it('gives 1 ms, never 0 or less, once it has passed: a request is still bounded, and fails at once', () => {
    const remaining = sharedDeadline(0);
    expect(remaining()).toBe(1);
    expect(sharedDeadline(-100)()).toBe(1);
  });
});

describe('a bounded signal', () => {
  it('aborts with a TimeoutError at its time, even after a garbage collection meanwhile', async () => {
    const { signal } = bounded(50, [new AbortController().signal]);
    // In a later job: a weak reference made in this one holds its target until the job ends.
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    const reason = await new Promise<unknown>((resolve) => signal.addEventListener('abort', () => resolve(signal.reason)));
    expect(reason).toBeInstanceOf(DOMException);
    expect((reason as DOMException).name).toBe('TimeoutError');
    expect((reason as DOMException).message).toBe('timed out after 50 ms');
  });

  it('aborts with the reason of whichever other signal aborts first, at once if one already has', () => {
    const first = new AbortController();
    const second = new AbortController();
    const { signal } = bounded(60_000, [first.signal, second.signal]);
    expect(signal.aborted).toBe(false);
    second.abort('closed');
    expect(signal.reason).toBe('closed');
    first.abort('later');
    expect(signal.reason).toBe('closed');
    const already = bounded(60_000, [AbortSignal.abort('gone')]);
    expect(already.signal.reason).toBe('gone');
  });

  it('once done, never aborts and leaves no listener on the other signals', async () => {
    const closing = new AbortController();
    const { signal, done } = bounded(20, [closing.signal]);
    expect(getEventListeners(closing.signal, 'abort')).toHaveLength(1);
    done();
    expect(getEventListeners(closing.signal, 'abort')).toHaveLength(0);
    await new Promise((resolve) => setTimeout(resolve, 60));
    closing.abort();
    expect(signal.aborted).toBe(false);
  });

  it('leaves no listener behind when it aborts', () => {
    const closing = new AbortController();
    const other = new AbortController();
    bounded(60_000, [closing.signal, other.signal]);
    closing.abort();
    expect(getEventListeners(other.signal, 'abort')).toHaveLength(0);
  });
});
