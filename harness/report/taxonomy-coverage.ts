import type { CaseResult } from '../run/outcome.js';
import { casesOf, type Taxonomy } from '../taxonomies.js';
import { tally } from './areas.js';
import { CLASS_STANDINGS, type ClassCoverage, type ClassStanding, type TaxonomyCoverage } from './taxonomy-coverage-types.js';

/**
 * How a run covered each public taxonomy (taxonomies/, docs/taxonomies.md): each class held,
 * exposed, not held, not run, missing from the catalogue, or one no broker can be judged on.
 * Computed from a report's cases and the mapping alone, so a report written before it gains it
 * when it is rendered again.
 */

function classCoverage(entry: Taxonomy['classes'][number], cases: readonly CaseResult[]): ClassCoverage {
  const base = { id: entry.id, title: entry.title };
  if (entry.scenarios === undefined) return { ...base, standing: entry.missing === true ? 'missing' : 'not-judgeable', attacks_held: 0, attacks_run: 0 };
  const score = tally(casesOf(entry, cases));
  const standing: ClassStanding =
    score.attacks_run === 0 ? 'not-run' : score.exposed > 0 ? 'exposed' : score.attacks_held === score.attacks_run ? 'held' : 'not-held';
  return { ...base, standing, attacks_held: score.attacks_held, attacks_run: score.attacks_run };
}

export function taxonomyCoverage(cases: readonly CaseResult[], taxonomies: readonly Taxonomy[]): TaxonomyCoverage[] {
  return taxonomies.map((taxonomy) => {
    const classes = taxonomy.classes.map((entry) => classCoverage(entry, cases));
    const counts = Object.fromEntries(CLASS_STANDINGS.map((standing) => [standing, classes.filter((c) => c.standing === standing).length])) as Record<ClassStanding, number>;
    return { id: taxonomy.id, name: taxonomy.name, counts, judgeable: classes.length - counts['not-judgeable'], classes };
  });
}

/** The classes a broker can be judged on that this run did not hold, in the taxonomy's order. */
export const classesNotHeld = (coverage: TaxonomyCoverage): ClassCoverage[] => coverage.classes.filter((c) => c.standing !== 'held' && c.standing !== 'not-judgeable');

/** A standing in words: `not run` for `not-run`. */
export const standingWords = (standing: ClassStanding): string => standing.replace('-', ' ');

/** "held 9 of 10 classes" with what the rest were, in words, for report.md and the run's log. */
export function describeCoverage(coverage: TaxonomyCoverage): string {
  const { counts } = coverage;
  const rest = (['exposed', 'not-held', 'not-run', 'missing'] as const).filter((standing) => counts[standing] > 0).map((standing) => `${counts[standing]} ${standingWords(standing)}`);
  const unjudgeable = counts['not-judgeable'] > 0 ? `; ${counts['not-judgeable']} no broker can be judged on` : '';
  return `held ${counts.held} of ${coverage.judgeable} ${coverage.name} classes${rest.length > 0 ? ` (${rest.join(', ')})` : ''}${unjudgeable}`;
}
