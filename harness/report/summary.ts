import type { CandidateInfo } from '../candidates/types.js';
import type { CaseResult, Outcome } from '../run/outcome.js';

export const REPORT_FORMAT = 'mcp-gauntlet-report/1';

export interface Summary {
  total: number;
  passed: number;
  failed: number;
  errors: number;
  unsupported: number;
  unsupported_environment: number;
}

export interface Report {
  format: typeof REPORT_FORMAT;
  suite: { name: string; version: string };
  candidate: CandidateInfo;
  started_at: string;
  finished_at: string;
  filter: string | null;
  summary: Summary;
  cases: CaseResult[];
}

export function summarise(cases: readonly CaseResult[]): Summary {
  const count = (outcome: Outcome) => cases.filter((c) => c.outcome === outcome).length;
  return {
    total: cases.length,
    passed: count('pass'),
    failed: count('fail'),
    errors: count('error'),
    unsupported: count('unsupported'),
    unsupported_environment: count('unsupported-environment'),
  };
}
