export type Outcome = 'pass' | 'fail' | 'unsupported' | 'unsupported-environment' | 'error';

/** One expectation that was not met: where, what was expected, what the harness observed. */
export interface Finding {
  step: string;
  expectation: string;
  expected: unknown;
  observed: unknown;
}

export interface CaseResult {
  id: string;
  title: string;
  file: string;
  kind: 'attack' | 'control';
  level: 'MUST' | 'SHOULD';
  requirements: string[];
  control?: string;
  features: string[];
  outcome: Outcome;
  duration_ms: number;
  /** Unmet expectations, for a `fail`. */
  findings: Finding[];
  /** Why the scenario could not be judged, for an `error` or `unsupported`. */
  reason?: string;
  /** What the harness noticed along the way that does not decide the verdict. */
  notes: string[];
}

/** A broker that died or hung has not shown anything; the scenario ends as an `error`. */
export class CandidateUnresponsive extends Error {}

/** The machine lacks a facility the scenario needs: reported as such, never as a pass. */
export class UnsupportedEnvironment extends Error {}
