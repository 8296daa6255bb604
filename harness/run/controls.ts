import type { CaseResult } from './outcome.js';

/** Gives each attack its control's outcome from the same run: an attack is only scored with it. */
export function attachControlOutcomes(cases: CaseResult[]): void {
  const outcomeOf = new Map(cases.map((c) => [c.id, c.outcome]));
  for (const c of cases) {
    delete c.control_outcome;
    const controlOutcome = c.control === undefined ? undefined : outcomeOf.get(c.control);
    if (controlOutcome !== undefined) c.control_outcome = controlOutcome;
  }
}
