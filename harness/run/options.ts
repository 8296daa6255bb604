import { parseArgs, type ParseArgsConfig } from 'node:util';
import { didYouMean } from '../nearest.js';
import { DEFAULT_STEP_TIMEOUT_MS } from './execute.js';

/** Thrown for an option the run cannot start with; the command line exits 2 with its message. */
export class UsageError extends Error {}

/**
 * A command's options read strictly (node:util's parseArgs), an unknown one refused by name with
 * the nearest known option: `unknown option --canddiate; did you mean --candidate?`. Every other
 * problem parseArgs finds is a UsageError with its own message.
 */
export function parseOptions<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    // Strict unless told otherwise: parseArgs's own default.
    return parseArgs(config);
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    if (!code?.startsWith('ERR_PARSE_ARGS_')) throw error;
    // parseArgs names the option in quotes: "Unknown option '--canddiate'".
    const given = code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /'(-[^'=]*)/.exec(message)?.[1] : undefined;
    if (given === undefined) throw new UsageError(message);
    const known = Object.keys(config.options ?? {});
    throw new UsageError(`unknown option ${given}${given.startsWith('--') ? didYouMean(given.slice(2), known, '--') : ''}`);
  }
}

/**
 * The longest step bound accepted: an hour. Beyond it a timer cannot be trusted to mean what was
 * asked (Node clamps anything past 2^31 - 1 ms to 1 ms), and no step of a scenario needs it.
 */
export const MAX_STEP_TIMEOUT_MS = 3_600_000;

/** The longest delay a Node timer keeps: past it, Node fires after 1 ms instead, silently. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A whole-number option from `min` to `max` (`fallback` when absent); `what` says what it takes in
 * the message that refuses anything else. Every number the run is given is read here, so none of
 * them can reach a timer out of its range.
 */
export function parseWhole(option: string, text: string | undefined, fallback: number, [min, max]: readonly [number, number], what = 'a whole number'): number {
  if (text === undefined) return fallback;
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new UsageError(`--${option} takes ${what} from ${min} to ${max}, not ${JSON.stringify(text)}`);
  }
  return value;
}

/** `--step-timeout`: a whole number of milliseconds from 1 to MAX_STEP_TIMEOUT_MS. */
export const parseStepTimeout = (text: string | undefined): number =>
  parseWhole('step-timeout', text, DEFAULT_STEP_TIMEOUT_MS, [1, MAX_STEP_TIMEOUT_MS], 'a whole number of milliseconds');

/**
 * An option given an empty value is refused rather than read as absent: `--filter ''` would
 * otherwise run the whole catalogue, `--report-dir ''` write into the working directory.
 */
export function refuseEmpty(values: Record<string, unknown>): void {
  const empty = Object.entries(values).filter(([, value]) => value === '').map(([name]) => `--${name}`);
  if (empty.length > 0) throw new UsageError(`${empty.join(', ')} needs a value, and was given an empty one`);
}
