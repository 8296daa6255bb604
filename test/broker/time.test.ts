// Instants the operator writes, and the rule that an expiry at now has expired.

import { describe, expect, it } from 'vitest';
import { isLive, parseRfc3339 } from '../../src/operator/time.js';

describe('parseRfc3339', () => {
  it.each([
    ['2999-01-01T00:00:00Z', Date.UTC(2999, 0, 1)],
    ['2030-01-01t00:00:00z', Date.UTC(2030, 0, 1)],
    ['2030-01-01T01:30:00+01:30', Date.UTC(2030, 0, 1)],
    ['2029-12-31T23:00:00-01:00', Date.UTC(2030, 0, 1)],
    ['2030-01-01T00:00:00.25Z', Date.UTC(2030, 0, 1) + 250],
    ['2030-01-01T00:00:00.0005Z', Date.UTC(2030, 0, 1) + 0.5],
    ['2024-02-29T00:00:00Z', Date.UTC(2024, 1, 29)],
    // A leap second reads as the next minute's start.
    ['2030-06-30T23:59:60Z', Date.UTC(2030, 6, 1)],
    ['2030-01-01T23:59:59+23:59', Date.UTC(2030, 0, 1, 23, 59, 59) - (23 * 60 + 59) * 60_000],
    ['2030-01-01T00:00:00.000Z', Date.UTC(2030, 0, 1)],
  ])('reads %s', (text, ms) => {
    expect(parseRfc3339(text)).toBe(ms);
  });

  it('keeps a year below 100 as written', () => {
    expect(new Date(parseRfc3339('0050-01-01T00:00:00Z') ?? NaN).toISOString()).toBe('0050-01-01T00:00:00.000Z');
  });

  it.each([
    '2030-01-01',
    '2030-01-01 00:00:00Z',
    '2030-01-01T00:00:00',
    '2030-13-01T00:00:00Z',
    '2023-02-29T00:00:00Z',
    '2030-01-01T24:00:00Z',
    '2030-01-01T00:60:00Z',
    '2030-01-01T00:00:00+24:00',
    '2030-00-01T00:00:00Z',
    '2030-01-00T00:00:00Z',
    '2030-01-01T00:00:61Z',
    '2030-01-01T00:00:00+00:60',
    '2030-1-01T00:00:00Z',
    'tomorrow',
  ])('refuses %s', (text) => {
    expect(parseRfc3339(text)).toBeUndefined();
  });
});

describe('isLive', () => {
  it('an expiry at now has expired; one just after is live', () => {
    expect(isLive(1000, 1000)).toBe(false);
    expect(isLive(999, 1000)).toBe(false);
    expect(isLive(1000.5, 1000)).toBe(true);
  });
});
