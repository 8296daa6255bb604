import type { Profile, ProfileScore } from '../profiles.js';
import { applyBaseline, isExpectedFailure, type Baseline } from '../run/baseline.js';
import type { CaseResult } from '../run/outcome.js';
import type { Scenario } from '../scenario/types.js';
import type { Taxonomy } from '../taxonomies.js';
import { plannedChecks } from '../expect/plan.js';
import { tally } from './areas.js';
import { taxonomyCoverage } from './taxonomy-coverage.js';
import type { Report } from './summary.js';

/** A profile scored on its own scenarios; scenarios it does not list (newer ones) do not count. */
export function scoreProfile(profile: Profile, cases: readonly CaseResult[]): ProfileScore {
  const ran = new Map(cases.map((c) => [c.id, c]));
  const mine = profile.scenarios.flatMap((id) => ran.get(id) ?? []);
  const { attacks_held, attacks_run, controls_passed, controls_run } = tally(mine);
  return { name: profile.name, version: profile.version, attacks_held, attacks_run, controls_passed, controls_run, missing: profile.scenarios.length - mine.length };
}

export interface AssessOptions {
  profiles: readonly Profile[];
  /** Every scenario of the catalogue: what a baseline entry may name. */
  catalogue: readonly Scenario[];
  baseline?: Baseline;
  /** The public taxonomies to score the run on (taxonomies/); none when absent. */
  taxonomies?: readonly Taxonomy[];
}

/** Adds to a finished report what is judged across cases: profile scores, taxonomy coverage and the baseline's verdict. */
export function assess(report: Report, options: AssessOptions): Report {
  const assessed: Report = { ...report, summary: { ...report.summary }, profiles: options.profiles.map((profile) => scoreProfile(profile, report.cases)) };
  if (options.taxonomies === undefined) delete assessed.taxonomies;
  else assessed.taxonomies = taxonomyCoverage(report.cases, options.taxonomies);
  delete assessed.baseline;
  delete assessed.summary.expected_failures;
  delete assessed.summary.unexpected_failures;
  delete assessed.summary.stale_entries;
  if (options.baseline === undefined) return assessed;
  const known = new Map(options.catalogue.map((s) => [s.id, new Set(plannedChecks(s).map((planned) => planned.check))]));
  const verdict = applyBaseline(options.baseline, report.cases, known);
  const failing = report.cases.filter((c) => c.outcome === 'fail' || c.outcome === 'error');
  const expected = failing.filter((c) => isExpectedFailure(c, verdict)).length;
  assessed.baseline = verdict;
  assessed.summary.expected_failures = expected;
  assessed.summary.unexpected_failures = failing.length - expected;
  assessed.summary.stale_entries = verdict.stale.length;
  return assessed;
}
