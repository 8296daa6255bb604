/**
 * The statistics of the benchmark, pure: medians and percentiles of samples, the spread of a
 * metric over rounds, and the per-round ratio of a candidate to the baseline. A round that measured
 * nothing is null and left out, never counted as zero.
 */

/** A metric over the rounds that measured it: the median and the range. */
export interface Spread {
  median: number;
  min: number;
  max: number;
  /** How many rounds measured it. */
  n: number;
}

const ascending = (values: readonly number[]): number[] => [...values].sort((a, b) => a - b);

/** The middle value, or the mean of the two middle values; undefined for no values. */
export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = ascending(values);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The nearest-rank percentile `p` (0 < p <= 100): the smallest value at least p% of the values are at or below. */
export function percentile(values: readonly number[], p: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = ascending(values);
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1];
}

/** The spread of the rounds that measured something; undefined when none did. */
export function spreadOf(rounds: ReadonlyArray<number | null>): Spread | undefined {
  const measured = rounds.filter((value): value is number => value !== null && Number.isFinite(value));
  const middle = median(measured);
  if (middle === undefined) return undefined;
  return { median: middle, min: Math.min(...measured), max: Math.max(...measured), n: measured.length };
}

/**
 * Round by round, the candidate's value over the baseline's: both were measured close together in
 * time, so load on the machine weighs on both alike. A round where either side measured nothing,
 * or the baseline measured zero, has no ratio.
 */
export function roundRatios(candidate: ReadonlyArray<number | null>, baseline: ReadonlyArray<number | null>): Array<number | null> {
  return candidate.map((value, round) => {
    const base = baseline[round] ?? null;
    return value === null || base === null || base === 0 ? null : value / base;
  });
}
