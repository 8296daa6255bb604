import type { Candidate } from '../candidates/types.js';

/**
 * Transparency: the second score beside "attacks held". Benign real-world traffic must pass
 * through a broker unharmed; each transparency *suite* runs its traffic direct and through the
 * candidate in the same run and says, per operation, what became of it.
 *
 * A suite slots in with one line in registry.ts: an object with a `name`, a `title` and a `run`
 * that gives one `TransparencyResult` per operation (or check) it judged.
 */

/**
 * What the agent received through the candidate, against what it received direct:
 * - `preserved`: the same, once what legitimately differs (ids, timestamps, the broker's own
 *   receipt `_meta`) is normalised;
 * - `changed`: different, but only as a named requirement of docs/requirements.md asks
 *   (`requirement` cites it: WTH-1 non-text withheld, DSC-2 description cap, ...);
 * - `broken`: anything else, including an error, a timeout or a dead candidate;
 * - `not-applicable`: the operation did not work direct either; not counted;
 * - `unsupported`: the candidate cannot run the session at all (it cannot start a server from a
 *   command, or cannot dial a URL): not counted, and said so.
 */
export type TransparencyVerdict = 'preserved' | 'changed' | 'broken' | 'not-applicable' | 'unsupported';

export interface TransparencyResult {
  /** The suite's name (`official-servers`, `conformance`). */
  suite: string;
  /** Unique within the suite, stable across runs: `everything/stdio/tools/call:echo`. */
  id: string;
  title: string;
  verdict: TransparencyVerdict;
  /** For `changed`: the requirement id that explains the difference. */
  requirement?: string;
  /** What was compared and, for anything but `preserved`, what differed. */
  detail: string;
}

export interface TransparencyOptions {
  /** Bound on each operation and each adapter operation. */
  stepTimeoutMs: number;
  /** Fires to stop the run early: the operation in progress ends as `broken`, none starts after. */
  signal?: AbortSignal;
  /** Told each session's duration as it ends (direct and candidate together). */
  onSession?: (suite: string, session: string, durationMs: number) => void;
}

export interface TransparencySuite {
  name: string;
  title: string;
  run(candidate: Candidate, options: TransparencyOptions): Promise<TransparencyResult[]>;
}

/** Counts of a set of results; `transparency` is preserved of those that work direct (null when none do). */
export interface TransparencyScore {
  preserved: number;
  changed: number;
  broken: number;
  not_applicable: number;
  unsupported: number;
  /** preserved + changed + broken: what works direct. */
  applicable: number;
  transparency: number | null;
}

/** What a report holds of the transparency run. */
export interface TransparencyReport {
  score: TransparencyScore;
  suites: Array<{ name: string; title: string; score: TransparencyScore; duration_ms: number; sessions: Array<{ id: string; duration_ms: number }> }>;
  results: TransparencyResult[];
  duration_ms: number;
}
