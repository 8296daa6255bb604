import { METRICS, type Metric, type MetricId, type Workload } from './metrics.js';
import { roundRatios, spreadOf, type Spread } from './stats.js';

/**
 * What the rounds measured: per metric and candidate, one value per round (null where that round
 * measured nothing), and per candidate and workload the notes that say why or how (a partial run,
 * an outcome other than the expected one, an error).
 */
export class Results {
  private readonly values = new Map<string, Array<number | null>>();
  private readonly notes = new Map<string, Set<string>>();

  constructor(
    readonly candidates: readonly string[],
    readonly rounds: number,
  ) {}

  record(metric: MetricId, candidate: string, round: number, value: number | null): void {
    const key = `${metric}\u0000${candidate}`;
    const row = this.values.get(key) ?? Array.from({ length: this.rounds }, () => null);
    row[round] = value;
    this.values.set(key, row);
  }

  note(candidate: string, workload: Workload, text: string): void {
    const key = `${candidate}\u0000${workload}`;
    this.notes.set(key, (this.notes.get(key) ?? new Set()).add(text));
  }

  roundsOf(metric: MetricId, candidate: string): Array<number | null> {
    return this.values.get(`${metric}\u0000${candidate}`) ?? Array.from({ length: this.rounds }, () => null);
  }

  notesOf(candidate: string, workload: Workload): string[] {
    return [...(this.notes.get(`${candidate}\u0000${workload}`) ?? [])];
  }
}

/** One metric of one candidate, summed up: its rounds, their spread, and the ratio to the metric's `ratioTo`. */
export interface Cell {
  rounds: Array<number | null>;
  spread?: Spread;
  /** The spread of the per-round ratios to the candidate the metric names (metrics.ts), where it has one. */
  ratio?: Spread;
}

/** Every metric's cells by candidate; a run older than a metric has none of it. */
export type Summary = Partial<Record<MetricId, Record<string, Cell>>>;

export function summarise(results: Results): Summary {
  const summary = {} as Summary;
  for (const metric of METRICS as ReadonlyArray<Metric & { id: MetricId }>) {
    const against = metric.ratioTo;
    const baseline = against === undefined ? undefined : results.roundsOf(metric.id, against);
    const cells: Record<string, Cell> = {};
    for (const candidate of results.candidates) {
      const rounds = results.roundsOf(metric.id, candidate);
      const spread = spreadOf(rounds);
      const ratio = baseline === undefined || candidate === against ? undefined : spreadOf(roundRatios(rounds, baseline));
      cells[candidate] = { rounds, ...(spread === undefined ? {} : { spread }), ...(ratio === undefined ? {} : { ratio }) };
    }
    summary[metric.id] = cells;
  }
  return summary;
}
