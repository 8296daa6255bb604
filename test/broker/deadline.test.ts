// The bound a listing's pages share (src/upstream/deadline.ts): each request gets what is left.

import { describe, expect, it } from 'vitest';
import { sharedDeadline } from '../../src/upstream/deadline.js';

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
