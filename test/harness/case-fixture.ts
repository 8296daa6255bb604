import { summarise, type Report } from '../../harness/report/summary.js';
import type { CaseResult, Finding } from '../../harness/run/outcome.js';
import { TRANSCRIPT_BOUNDS } from '../../harness/run/transcript.js';

/** A judged case as the runner writes it, for tests of what is computed across cases. */
export function judgedCase(id: string, outcome: CaseResult['outcome'], options: { kind?: 'attack' | 'control'; control?: string; checks?: string[] } = {}): CaseResult {
  const findings: Finding[] = (options.checks ?? []).map((check) => ({ check, class: 'harm', step: 'call', expectation: check, expected: 'held', observed: 'through' }));
  return {
    id,
    title: id,
    file: `scenarios/${id}.yaml`,
    kind: options.kind ?? 'attack',
    level: 'MUST',
    requirements: [],
    ...(options.control === undefined ? {} : { control: options.control }),
    claims: [],
    claimed: false,
    outcome,
    ...(outcome === 'fail' ? { failure: 'exposed' as const } : {}),
    duration_ms: 1,
    findings,
    unchecked: [],
    ...(outcome === 'error' ? { reason: 'the broker died' } : {}),
    notes: [],
    transcript: { steps: [], agent: [], server: [], bounds: TRANSCRIPT_BOUNDS.passing },
  };
}

/** A finished report of `cases` from a candidate named x, as a run writes it, with `extra` members. */
export function reportOf(cases: CaseResult[], extra: Partial<Report> = {}): Report {
  return {
    format: 'mcp-gauntlet-report/3',
    suite: { name: 'mcp-gauntlet', version: '0' },
    candidate: { name: 'x', version: '1', adapterProtocol: 'gauntlet-candidate/2', claims: [] },
    started_at: '',
    finished_at: '',
    filter: null,
    summary: summarise(cases),
    cases,
    ...extra,
  };
}
