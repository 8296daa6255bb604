import { accessSync, constants, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hold } from '../observe/containment.js';
import { REPORT_FILES } from '../report/write.js';
import { UsageError } from './options.js';

/** The file in a report folder that says which run is writing it. */
export const REPORT_LOCK = '.gauntlet-run.lock';

/** What a lock says of the run that holds it. */
interface LockHolder {
  pid: number;
  started: string;
}

function readHolder(lock: string): LockHolder | undefined {
  try {
    const holder = JSON.parse(readFileSync(lock, 'utf8')) as Partial<LockHolder>;
    return typeof holder.pid === 'number' && Number.isSafeInteger(holder.pid) && holder.pid > 0 ? { pid: holder.pid, started: String(holder.started) } : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a process of that id is alive: signal 0 checks without sending anything (EPERM: alive, another user's). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the folder's lock for this process, or says which live run holds it. A lock whose run has
 * died (killed before it could release it) or that cannot be read is taken over.
 */
function lock(dir: string): () => void {
  const file = join(dir, REPORT_LOCK);
  const mine = JSON.stringify({ pid: process.pid, started: new Date().toISOString() } satisfies LockHolder);
  for (let attempt = 0; ; attempt++) {
    try {
      // `wx`: created only if absent, so of two runs claiming at once exactly one gets it.
      writeFileSync(file, mine, { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readHolder(file);
      // Taken over once: a run that lost the lock to another between the removal and its own
      // creation sees that one's lock the second time and is refused.
      if ((holder !== undefined && (holder.pid === process.pid || alive(holder.pid))) || attempt > 0) {
        const who = holder === undefined ? 'another run' : `the run with pid ${holder.pid} (started ${holder.started})`;
        throw new UsageError(`the report folder ${dir} is being written by ${who}: wait for it to end or give --report-dir another folder (a lock no run holds any more is ${file})`);
      }
      rmSync(file, { force: true });
    }
  }
  return () => {
    if (readHolder(file)?.pid === process.pid) rmSync(file, { force: true });
  };
}

/**
 * Makes sure the run's report can be written before anything runs (a report folder that turns out
 * unusable after the run would lose every result), locks it for this run (a second run into the
 * same folder is refused at once, instead of both writing and one report being lost), and removes
 * the report a previous run left there: a run that is interrupted, or killed before it writes, must
 * never leave an older report that reads as its own. The lock is released when the process exits,
 * however it exits (an interrupt ends the run only after its partial report is written).
 */
export function claimReportDir(dir: string): void {
  let release: () => void;
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK | constants.X_OK);
    release = lock(dir);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`the report folder ${dir} cannot be written: ${(error as Error).message}`);
  }
  // Held as a folder is: released at exit, not on the interrupt, which the run outlives to write its report.
  hold('folder', release);
  try {
    for (const name of REPORT_FILES) rmSync(join(dir, name), { force: true });
  } catch (error) {
    throw new UsageError(`the report folder ${dir} cannot be written: ${(error as Error).message}`);
  }
}
