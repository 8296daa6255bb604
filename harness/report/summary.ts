import { BASE_REVISION, REVISIONS, type Revision } from '../agent/revisions.js';
import type { CandidateInfo } from '../candidates/types.js';
import type { ProfileScore } from '../profiles.js';
import type { BaselineVerdict } from '../run/baseline.js';
import type { Shard } from '../run/shard.js';
import type { CaseResult, FailureKind, Outcome } from '../run/outcome.js';
import type { TransparencyReport } from '../transparency/types.js';
import type { TaxonomyCoverage } from './taxonomy-coverage-types.js';

export const REPORT_FORMAT = 'mcp-gauntlet-report/3';

export interface Summary {
  total: number;
  passed: number;
  failed: number;
  errors: number;
  unsupported: number;
  unsupported_environment: number;
  /** Failing cases by kind (docs/expectations.md). */
  exposed: number;
  over_blocked: number;
  nonconformant: number;
  /** The headline: attacks that pass while their control passes in the same run, of attacks run. */
  attacks_held: number;
  attacks_total: number;
  /**
   * Of attacks_held, those held by a protection the adapter declared it provides itself
   * (`by_adapter`), not by the broker. Absent from reports written before it.
   */
  attacks_held_by_adapter?: number;
  /** Exposed attacks whose protection the candidate claims, and those it does not. */
  exposed_claimed: number;
  exposed_not_claimed: number;
  /**
   * The headline of each MCP revision the run's cases spoke, beside the totals above (a case of a
   * report written before it spoke 2025-11-25). Absent from reports written before it.
   */
  by_revision?: Partial<Record<Revision, RevisionScore>>;
  /** With a baseline: failing cases it lists in full, those it does not, and its entries that fail the run. */
  expected_failures?: number;
  unexpected_failures?: number;
  stale_entries?: number;
}

/** One revision's cases scored as the headline is: attacks held of attacks judged, controls passed of controls judged. */
export interface RevisionScore {
  attacks_held: number;
  attacks_total: number;
  controls_passed: number;
  controls_total: number;
}

/** Judged: an outcome that says something of the broker (not an unsupported case). */
export const judged = (c: CaseResult): boolean => c.outcome === 'pass' || c.outcome === 'fail' || c.outcome === 'error';

/** The headline of each revision that has cases, in the order of REVISIONS. */
function byRevision(cases: readonly CaseResult[]): Partial<Record<Revision, RevisionScore>> {
  return Object.fromEntries(
    REVISIONS.flatMap((revision) => {
      const spoken = cases.filter((c) => (c.revision ?? BASE_REVISION) === revision);
      if (spoken.length === 0) return [];
      const controls = spoken.filter((c) => c.kind === 'control' && judged(c));
      const score: RevisionScore = {
        attacks_held: spoken.filter(held).length,
        attacks_total: spoken.filter((c) => c.kind === 'attack' && judged(c)).length,
        controls_passed: controls.filter((c) => c.outcome === 'pass').length,
        controls_total: controls.length,
      };
      return [[revision, score]];
    }),
  );
}

/**
 * What the run cost in time (additive in mcp-gauntlet-report/3; absent from older reports and
 * from a merge of shards).
 */
export interface Timing {
  /** From the first scenario started to the last finished. */
  wall_ms: number;
  /** Every case's duration added up: with one job about the wall time, with several more. */
  scenario_ms: number;
  /** How many scenarios ran at once. */
  jobs: number;
  /** The budgets the run was held to (docs/running.md, "Budgets"). */
  scenario_budget_ms: number;
  run_budget_ms: number;
  /** The slowest cases, slowest first (at most SLOWEST_KEPT). */
  slowest: Array<{ id: string; duration_ms: number; outcome: Outcome }>;
}

/** How many of the slowest cases the timing names. */
export const SLOWEST_KEPT = 10;

export function timingOf(cases: readonly CaseResult[], run: { wallMs: number; jobs: number; scenarioBudgetMs: number; runBudgetMs: number }): Timing {
  const slowest = [...cases].sort((a, b) => b.duration_ms - a.duration_ms || a.id.localeCompare(b.id)).slice(0, SLOWEST_KEPT);
  return {
    wall_ms: run.wallMs,
    scenario_ms: cases.reduce((sum, c) => sum + c.duration_ms, 0),
    jobs: run.jobs,
    scenario_budget_ms: run.scenarioBudgetMs,
    run_budget_ms: run.runBudgetMs,
    slowest: slowest.map((c) => ({ id: c.id, duration_ms: c.duration_ms, outcome: c.outcome })),
  };
}

export interface Report {
  format: typeof REPORT_FORMAT;
  suite: { name: string; version: string };
  candidate: CandidateInfo;
  started_at: string;
  finished_at: string;
  filter: string | null;
  /** The profile whose scenarios were selected (`--profile`). */
  profile?: string;
  /** The part of the selection this report holds (`--shard`); absent for a whole run or a merge. */
  shard?: Shard;
  summary: Summary;
  /** What the run cost in time. */
  timing?: Timing;
  /** Each profile scored on its own scenarios (docs/profiles.md). */
  profiles?: ProfileScore[];
  /**
   * Each public taxonomy's classes held, exposed, not run or missing (docs/taxonomies.md), from the
   * cases and taxonomies/. Absent from reports written before it; the renderers compute it afresh.
   */
  taxonomies?: TaxonomyCoverage[];
  /** What the expected-failure baseline made of the run (docs/ci.md). */
  baseline?: BaselineVerdict;
  /** Present when the run was interrupted (SIGINT, SIGTERM): why, and the selected scenarios it did not judge. */
  incomplete?: { reason: string; not_run: string[] };
  cases: CaseResult[];
  /**
   * The second score beside attacks held: benign real-world traffic direct against through the
   * candidate (harness/transparency/). Absent when the run skipped it (`--no-transparency`).
   */
  transparency?: TransparencyReport;
}

/** An attack held: it passed, and so did its control, so the broker did not hold it by refusing all. */
export const held = (c: CaseResult): boolean => c.kind === 'attack' && c.outcome === 'pass' && c.control_outcome === 'pass';

/** A case whose verdict rests on a protection the adapter provides itself, not the broker. */
export const restsOnAdapter = (c: Pick<CaseResult, 'by_adapter'>): boolean => (c.by_adapter?.length ?? 0) > 0;

/** An attack held by the adapter's own protection: held, but not to the broker's credit. */
export const heldByAdapter = (c: CaseResult): boolean => held(c) && restsOnAdapter(c);

export function summarise(cases: readonly CaseResult[]): Summary {
  const count = (outcome: Outcome) => cases.filter((c) => c.outcome === outcome).length;
  const failing = (failure: FailureKind) => cases.filter((c) => c.failure === failure).length;
  const exposed = cases.filter((c) => c.kind === 'attack' && c.failure === 'exposed');
  return {
    total: cases.length,
    passed: count('pass'),
    failed: count('fail'),
    errors: count('error'),
    unsupported: count('unsupported'),
    unsupported_environment: count('unsupported-environment'),
    exposed: failing('exposed'),
    over_blocked: failing('over-blocked'),
    nonconformant: failing('nonconformant'),
    attacks_held: cases.filter(held).length,
    attacks_held_by_adapter: cases.filter(heldByAdapter).length,
    attacks_total: cases.filter((c) => c.kind === 'attack' && judged(c)).length,
    exposed_claimed: exposed.filter((c) => c.claimed).length,
    exposed_not_claimed: exposed.filter((c) => !c.claimed).length,
    by_revision: byRevision(cases),
  };
}
