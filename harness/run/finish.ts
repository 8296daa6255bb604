import { isAbsolute, join, relative } from 'node:path';
import { loadCatalogue } from '../catalogue.js';
import { loadProfiles } from '../profiles.js';
import { loadTaxonomies } from '../taxonomies.js';
import { assess } from '../report/assess.js';
import { describeCoverage } from '../report/taxonomy-coverage.js';
import type { Report } from '../report/summary.js';
import { REPORT_FILES, writeReport } from '../report/write.js';
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
  const assessed = assess(report, { profiles: loadProfiles(), catalogue: loadCatalogue(), taxonomies: loadTaxonomies(), ...(options.baseline === undefined ? {} : { baseline: options.baseline }) });
  if (options.writeBaselineTo !== undefined) {
    const placeholders = await writeBaseline(options.writeBaselineTo, assessed.candidate.name, assessed.cases, options.baseline);
    options.log(`baseline written to ${options.writeBaselineTo}; ${placeholders.length} entr${placeholders.length === 1 ? 'y needs' : 'ies need'} a reason in place of the placeholder`);
  }
  await writeReport(assessed, options.reportDir);
  const { summary } = assessed;
  options.log(
    `attacks held ${summary.attacks_held} of ${summary.attacks_total}; exposed ${summary.exposed}, over-blocked ${summary.over_blocked}, nonconformant ${summary.nonconformant}; ${summary.passed} passed, ${summary.failed} failed, ${summary.errors} errors, ${summary.unsupported + summary.unsupported_environment} unsupported`,
  );
  for (const coverage of assessed.taxonomies ?? []) options.log(describeCoverage(coverage));
  if (report.incomplete !== undefined) {
    options.log(`INCOMPLETE: the run was interrupted (${report.incomplete.reason}); ${report.incomplete.not_run.length} selected scenario(s) not judged, the report says so`);
  }
  if (assessed.baseline !== undefined) {
    options.log(`baseline ${assessed.baseline.file}: ${summary.expected_failures} expected failure(s), ${summary.unexpected_failures} unexpected, ${assessed.baseline.stale.length} stale entr${assessed.baseline.stale.length === 1 ? 'y' : 'ies'}`);
    for (const line of baselineProblems(assessed)) options.log(line);
  }
  options.log(openingLine(options.reportDir));
  return exitCodeOf(assessed);
}

/**
 * The run's last line: the page a person opens, by a path from where the run was started when it
 * is below it, and the other files beside it, so that the end of a log says where to look.
 */
export function openingLine(reportDir: string): string {
  const page = join(reportDir, 'report.html');
  const fromHere = relative(process.cwd(), page);
  const shown = fromHere.startsWith('..') || isAbsolute(fromHere) ? page : fromHere;
  const others = REPORT_FILES.filter((name) => name !== 'report.html');
  return `report: open ${shown} (${others.join(', ')} beside it)`;
}
