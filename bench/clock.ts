/**
 * The monotonic clock the benchmark times with (process.hrtime): it is the clock the kit's
 * `written` ledger records carry, which every process on one machine reads alike.
 */
export const now = (): bigint => process.hrtime.bigint();

/** Milliseconds from `start` to `end` (now, unless given). */
export const elapsedMs = (start: bigint, end: bigint = now()): number => Number(end - start) / 1e6;
