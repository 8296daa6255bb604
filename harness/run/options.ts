import { DEFAULT_STEP_TIMEOUT_MS } from './execute.js';

/** Thrown for an option the run cannot start with; the command line exits 2 with its message. */
export class UsageError extends Error {}

/**
 * The longest step bound accepted: an hour. Beyond it a timer cannot be trusted to mean what was
 * asked (Node clamps anything past 2^31 - 1 ms to 1 ms), and no step of a scenario needs it.
 */
export const MAX_STEP_TIMEOUT_MS = 3_600_000;

/** `--step-timeout`: a whole number of milliseconds from 1 to MAX_STEP_TIMEOUT_MS. */
export function parseStepTimeout(text: string | undefined): number {
  if (text === undefined) return DEFAULT_STEP_TIMEOUT_MS;
  const ms = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(ms) || ms < 1 || ms > MAX_STEP_TIMEOUT_MS) {
    throw new UsageError(`--step-timeout takes a whole number of milliseconds from 1 to ${MAX_STEP_TIMEOUT_MS}, not ${JSON.stringify(text)}`);
  }
  return ms;
}

/**
 * An option given an empty value is refused rather than read as absent: `--filter ''` would
 * otherwise run the whole catalogue, `--report-dir ''` write into the working directory.
 */
export function refuseEmpty(values: Record<string, unknown>): void {
  const empty = Object.entries(values).filter(([, value]) => value === '').map(([name]) => `--${name}`);
  if (empty.length > 0) throw new UsageError(`${empty.join(', ')} needs a value, and was given an empty one`);
}
