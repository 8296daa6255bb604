import { accessSync, constants, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { REPORT_FILES } from '../report/write.js';
import { UsageError } from './options.js';

/**
 * Makes sure the run's report can be written before anything runs (a report folder that turns out
 * unusable after the run would lose every result), and removes the report a previous run left
 * there: a run that is interrupted, or killed before it writes, must never leave an older report
 * that reads as its own.
 */
export function claimReportDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK | constants.X_OK);
    for (const name of REPORT_FILES) rmSync(join(dir, name), { force: true });
  } catch (error) {
    throw new UsageError(`the report folder ${dir} cannot be written: ${(error as Error).message}`);
  }
}
