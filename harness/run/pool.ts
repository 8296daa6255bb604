import { availableParallelism } from 'node:os';

/**
 * How many scenarios run at once by default: one per core the machine offers. A scenario is
 * mostly CPU (four node processes starting), with some waiting on pipes between them, so more
 * workers than cores mostly adds contention (docs/running.md, "Parallel runs").
 */
export const defaultJobs = (): number => Math.max(1, availableParallelism());

/** The most workers a run accepts: each scenario is several processes. */
export const MAX_JOBS = 64;

/**
 * Runs `work` over `items` with at most `jobs` of them in flight, taking items in their order,
 * and gives the results in the items' order whatever order they finished in. An item `alone`
 * marks runs with nothing else in flight: it waits for those in flight to finish, and nothing
 * starts beside it (nor, while it waits, before it). Those items are handed out after all the
 * others: each would otherwise leave every other worker idle while the items in flight drain;
 * last, they drain once, into the run's own tail. `work` must not throw for one item's failure:
 * a rejection stops handing out items and rejects the whole run once the items in flight have
 * settled, so nothing is left running behind the caller.
 */
export async function runPool<T, R>(items: readonly T[], jobs: number, work: (item: T, index: number) => Promise<R>, alone: (item: T) => boolean = () => false): Promise<R[]> {
  if (!Number.isInteger(jobs) || jobs < 1) throw new RangeError(`jobs must be a positive whole number, not ${jobs}`);
  const results = new Array<R>(items.length);
  const aloneAt = items.map((item) => alone(item));
  const indices = items.map((_, index) => index);
  const order = [...indices.filter((index) => !aloneAt[index]), ...indices.filter((index) => aloneAt[index])];
  let next = 0;
  let failure: { error: unknown } | undefined;
  let running = 0;
  let exclusive = false;
  let waitingAlone = 0;
  const sleepers: Array<() => void> = [];
  // The check and the claim happen in one synchronous stretch, so no other worker can start
  // between them.
  const admit = async (solo: boolean): Promise<void> => {
    if (solo) waitingAlone++;
    while (solo ? running > 0 || exclusive : exclusive || waitingAlone > 0) await new Promise<void>((wake) => sleepers.push(wake));
    if (solo) {
      waitingAlone--;
      exclusive = true;
    }
    running++;
  };
  const worker = async (): Promise<void> => {
    while (failure === undefined && next < order.length) {
      const index = order[next++]!;
      const solo = aloneAt[index]!;
      await admit(solo);
      try {
        results[index] = await work(items[index]!, index);
      } catch (error) {
        failure ??= { error };
      } finally {
        running--;
        if (solo) exclusive = false;
        for (const wake of sleepers.splice(0)) wake();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, items.length) }, worker));
  if (failure !== undefined) throw failure.error;
  return results;
}
