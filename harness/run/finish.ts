import { loadCatalogue } from '../catalogue.js';
import { loadProfiles } from '../profiles.js';
import { assess } from '../report/assess.js';
import type { Report } from '../report/summary.js';
import { writeReport } from '../report/write.js';
import { writeBaseline, type Baseline } from './baseline.js';
import { baselineProblems, exitCodeOf } from './exit-code.js';

export interface FinishOptions {
  reportDir: string;
  baseline?: Baseline;
  /** Where to write a baseline of the current failures (`--write-baseline`). */
  writeBaselineTo?: string;
  log: (line: string) => void;
}

/**
 * What a run and a merge do with a finished report: score the profiles, apply the baseline, write
 * the report (and a baseline if asked), say on stderr what fails the run, and give the exit code.
 */
export async function finishReport(report: Report, options: FinishOptions): Promise<number> {
  const assessed = assess(report, { profiles: loadProfiles(), catalogue: loadCatalogue(), ...(options.baseline === undefined ? {} : { baseline: options.baseline }) });
  if (options.writeBaselineTo !== undefined) {
    const placeholders = await writeBaseline(options.writeBaselineTo, assessed.candidate.name, assessed.cases, options.baseline);
    options.log(`baseline written to ${options.writeBaselineTo}; ${placeholders.length} entr${placeholders.length === 1 ? 'y needs' : 'ies need'} a reason in place of the placeholder`);
  }
  const files = await writeReport(assessed, options.reportDir);
  const { summary } = assessed;
  options.log(
    `attacks held ${summary.attacks_held} of ${summary.attacks_total}; exposed ${summary.exposed}, over-blocked ${summary.over_blocked}, nonconformant ${summary.nonconformant}; ${summary.passed} passed, ${summary.failed} failed, ${summary.errors} errors, ${summary.unsupported + summary.unsupported_environment} unsupported; report: ${files[0]}`,
  );
  if (report.incomplete !== undefined) {
    options.log(`INCOMPLETE: the run was interrupted (${report.incomplete.reason}); ${report.incomplete.not_run.length} selected scenario(s) not judged, the report says so`);
  }
  if (assessed.baseline !== undefined) {
    options.log(`baseline ${assessed.baseline.file}: ${summary.expected_failures} expected failure(s), ${summary.unexpected_failures} unexpected, ${assessed.baseline.stale.length} stale entr${assessed.baseline.stale.length === 1 ? 'y' : 'ies'}`);
    for (const line of baselineProblems(assessed)) options.log(line);
  }
  return exitCodeOf(assessed);
}
