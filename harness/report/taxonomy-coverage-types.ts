/**
 * What a report says of each public taxonomy (harness/report/taxonomy-coverage.ts computes it),
 * apart from the computation so that the report's own type can name it without an import cycle.
 */

/**
 * `held`: every attack of the class judged was held (passed with its control passing), at least
 * one judged; `exposed`: one got through; `not-held`: otherwise not held (over-blocked,
 * nonconformant, an error); `not-run`: no attack of the class judged in this run; `missing`: the
 * catalogue has no scenario for it yet; `not-judgeable`: no broker can be judged on it.
 */
export type ClassStanding = 'held' | 'exposed' | 'not-held' | 'not-run' | 'missing' | 'not-judgeable';

export const CLASS_STANDINGS: readonly ClassStanding[] = ['held', 'exposed', 'not-held', 'not-run', 'missing', 'not-judgeable'];

export interface ClassCoverage {
  id: string;
  title: string;
  standing: ClassStanding;
  attacks_held: number;
  attacks_run: number;
}

export interface TaxonomyCoverage {
  id: string;
  name: string;
  /** Classes by standing. */
  counts: Record<ClassStanding, number>;
  /** Classes a broker can be judged on: all but those that are not judgeable (missing ones count: the catalogue lacks them). */
  judgeable: number;
  classes: ClassCoverage[];
}
