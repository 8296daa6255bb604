import type { CaseResult } from './outcome.js';

/**
 * The time a run may spend on one scenario, beyond each step's own timeout: a scenario of many
 * steps against a broker that answers each just inside its timeout is still cut off here. The
 * slowest reference scenario takes under 10 s on a loaded machine (report.json `timing.slowest`),
 * so a working broker is far from it even with several jobs sharing the cores.
 */
export const DEFAULT_SCENARIO_BUDGET_MS = 120_000;

/** The time a whole run may spend; scenarios left when it is spent end as a named `error`. */
export const DEFAULT_RUN_BUDGET_MS = 30 * 60_000;

/**
 * After this many scenarios in a row (in the order they finished) ended in `error` with the
 * candidate having answered the agent nothing at all, the candidate is taken to be unresponsive
 * and the rest of the run is not spent waiting on it: each remaining scenario is an `error`
 * saying so. A broker that answers anything in between resets the count, so a working broker
 * never meets it.
 */
export const UNRESPONSIVE_AFTER = 8;

/** A budget ran out: the scenario ends as an `error` naming which one, never as a pass. */
export class BudgetSpent extends Error {}

/** An abort signal that fires after `ms` with a BudgetSpent saying `why`; `clear` it once done. */
export function deadline(ms: number, why: string): { signal: AbortSignal; clear: () => void } {
  const controller = new AbortController();
  // A bound, not a trigger: nothing is decided by it firing except that time is up. Unref'd so a
  // run that finished is never held open by it.
  const timer = setTimeout(() => controller.abort(new BudgetSpent(why)), ms).unref();
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

/** The BudgetSpent an aborted signal carries (or one made of whatever else it carries). */
export const spentReason = (signal: AbortSignal): BudgetSpent =>
  signal.reason instanceof BudgetSpent ? signal.reason : new BudgetSpent(String((signal.reason as Error | undefined)?.message ?? signal.reason));

/**
 * Awaits `work` unless `signal` fires first; then `stop` is called (it ends what `work` waits on,
 * such as the candidate's channel), `work` is awaited to settle so nothing it holds is left
 * behind, and the budget's BudgetSpent is thrown.
 */
export async function unlessSpent<T>(work: Promise<T>, signal: AbortSignal | undefined, stop: () => Promise<void> | void): Promise<T> {
  if (signal === undefined) return work;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<'aborted'>((resolve) => {
    onAbort = () => resolve('aborted');
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  const settled = work.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  try {
    const first = await Promise.race([settled, aborted]);
    if (first !== 'aborted') {
      if ('error' in first) throw first.error;
      return first.value;
    }
  } finally {
    signal.removeEventListener('abort', onAbort!);
  }
  await stop();
  await settled;
  throw spentReason(signal);
}

/** Whether the candidate said anything at all to the agent in a case. */
export const answeredSomething = (result: CaseResult): boolean => result.transcript.agent.some((line) => 'from' in line && line.from === 'broker');

/** Counts the silent errors in a row, in the order cases finish (UNRESPONSIVE_AFTER). */
export class SilenceWatch {
  private readonly silent: string[] = [];
  private tripped: string | undefined;

  constructor(private readonly limit: number = UNRESPONSIVE_AFTER) {}

  record(result: CaseResult): void {
    if (this.tripped !== undefined || result.reason?.startsWith(NOT_RUN) === true) return;
    // A case that passed or failed without the broker saying anything (a refused start) neither
    // counts nor resets: only an error the candidate never answered in counts.
    if (answeredSomething(result)) this.silent.length = 0;
    else if (result.outcome === 'error') this.silent.push(result.id);
    if (this.silent.length >= this.limit) {
      this.tripped = `${NOT_RUN}: the candidate answered nothing in ${this.silent.length} scenarios in a row (${this.silent.join(', ')}), so it is taken to be unresponsive and the rest of the run is not spent waiting on it`;
    }
  }

  /** Why the scenarios not yet started are not run, once the candidate is taken to be unresponsive. */
  get reason(): string | undefined {
    return this.tripped;
  }
}

/** How the reason of every scenario a budget or the silence rule kept from running begins. */
export const NOT_RUN = 'not run';
