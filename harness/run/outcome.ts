import type { Revision } from '../agent/revisions.js';
import type { Finding } from '../expect/types.js';
import type { Transcript } from './transcript.js';

export type { Finding } from '../expect/types.js';

export type Outcome = 'pass' | 'fail' | 'unsupported' | 'unsupported-environment' | 'error';

/**
 * What kind of failure a failing case is (docs/expectations.md): `exposed`, a harm or record
 * check of an attack failed (the attack got through); `over-blocked`, a benign check failed (the
 * ordinary use was broken); `nonconformant`, only contract checks failed (safe, in another shape).
 */
export type FailureKind = 'exposed' | 'over-blocked' | 'nonconformant';

export interface CaseResult {
  id: string;
  title: string;
  file: string;
  kind: 'attack' | 'control';
  level: 'MUST' | 'SHOULD';
  requirements: string[];
  control?: string;
  /** The MCP revision the case spoke (docs/scenario-format.md, Revisions); absent from reports written before it, which spoke 2025-11-25. */
  revision?: Revision;
  /** A scenario of a feature its revision deprecates (sampling, roots, logging). */
  legacy?: true;
  /** The protections the scenario tests. */
  claims: string[];
  /** Whether the candidate claims every protection the scenario tests. */
  claimed: boolean;
  /**
   * The protections the scenario tests that the adapter declared it provides itself (claim tags or
   * requirement ids of `adapter_provides`); absent when none. Such a case's verdict is the
   * adapter's: held, it is held by the adapter, not the broker.
   */
  by_adapter?: string[];
  outcome: Outcome;
  /** For a `fail`: which kind. */
  failure?: FailureKind;
  /** For an attack: its control's outcome in the same run. */
  control_outcome?: Outcome;
  duration_ms: number;
  /** Unmet expectations: for a `fail`, and for an `error` whose earlier steps already failed checks. */
  findings: Finding[];
  /** Checks not taken because the candidate lacks the hook they read. */
  unchecked: Array<{ check: string; hook: string }>;
  /** Why the scenario could not be judged, for an `error` or `unsupported`; an `error`'s cause for a `fail` that ended in one. */
  reason?: string;
  /** The end of what the candidate wrote on stderr, for a failing or erroring case. */
  stderr_tail?: string;
  /** What the harness noticed along the way that does not decide the verdict. */
  notes: string[];
  /** Both sides of what crossed, as the harness recorded them, bounded (harness/run/transcript.ts). */
  transcript: Transcript;
}

/** The failure kind a set of findings amounts to, for a case of this kind. */
export function failureOf(kind: 'attack' | 'control', findings: readonly Finding[]): FailureKind {
  if (findings.every((finding) => finding.class === 'contract')) return 'nonconformant';
  if (kind === 'attack' && findings.some((finding) => finding.class === 'harm' || finding.class === 'record')) return 'exposed';
  return 'over-blocked';
}

/** A broker that died or hung has not shown anything; the scenario ends as an `error`. */
export class CandidateUnresponsive extends Error {}

/** The machine lacks a facility the scenario needs: reported as such, never as a pass. */
export class UnsupportedEnvironment extends Error {}
