import { parseArgs } from 'node:util';
import { builtInCandidates } from '../harness/candidates/registry.js';

/** Everything a run of the benchmark can be told, each with a default sized for 2 loaded cores and 10 minutes. */
export interface BenchOptions {
  candidates: string[];
  rounds: number;
  /** Calls made one after another before the sequential calls, measured in nothing (first-call and JIT costs). */
  warmUp: number;
  /** Calls measured, sequential and in flight: their CPU is read over all of them. */
  calls: number;
  inFlight: number;
  behind: number;
  tools: number;
  pages: number;
  largeMib: number;
  /** Bound on each run of calls (sequential, in flight) for one candidate in one round. */
  callBudgetS: number;
  /** Bound on the warm-up: a slow broker needs fewer calls to be warm, and would spend the most time on them. */
  warmUpBudgetS: number;
  /** Bound on any one adapter operation or request. */
  timeoutS: number;
  /** Bound on the large answer: a broker that forwards it all is cut off here. */
  largeTimeoutS: number;
  /** How many of the rounds run the large answer (the costliest workload, and the least noisy). */
  largeRounds: number;
  /** Past this, no further workload run starts; the report says how many were skipped. */
  deadlineS: number;
  outDir: string;
  updateReadme: boolean;
  /**
   * A bench.json to show again instead of measuring: its targets judged anew and its reports (and,
   * with updateReadme, the README's table) written from it, for a change in how results are shown.
   */
  from?: string;
}

/** Every built-in candidate but those that are the same broker told to do less (plain-proxy). */
export const DEFAULT_CANDIDATES = ['direct', 'reference', 'passthrough', 'mcp-proxy', 'supergateway', 'mcp-hub', 'mcp-remote', 'civic-passthrough'];

export const USAGE = `npm run bench -- [--candidates a,b,...] [--rounds N] [--warm-up N] [--calls N] [--in-flight N] [--behind N] [--tools N] [--pages N]
  [--large-mib N] [--large-rounds N] [--call-budget-s S] [--warm-up-budget-s S] [--timeout-s S] [--large-timeout-s S] [--deadline-s S] [--out DIR] [--update-readme]
       npm run bench -- --from reports/bench.json [--out DIR] [--update-readme]   (shows a past run again; measures nothing)`;

const DEFAULTS = { rounds: 3, 'warm-up': 2000, calls: 10000, 'in-flight': 16, behind: 15, tools: 1000, pages: 10, 'large-mib': 1024, 'call-budget-s': 5, 'warm-up-budget-s': 4, 'timeout-s': 60, 'large-timeout-s': 30, 'large-rounds': 1, 'deadline-s': 480 };

export class OptionError extends Error {}

function positive(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const n = /^[1-9]\d*$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n)) throw new OptionError(`--${name} takes a whole number >= 1, not ${JSON.stringify(text)}`);
  return n;
}

export function parseOptions(args: readonly string[]): BenchOptions {
  const numeric = Object.fromEntries(Object.keys(DEFAULTS).map((name) => [name, { type: 'string' as const }]));
  const { values } = parseArgs({
    args: [...args],
    options: { ...numeric, candidates: { type: 'string' }, out: { type: 'string' }, 'update-readme': { type: 'boolean' }, from: { type: 'string' } },
    strict: true,
  });
  const given = values as Record<string, string | boolean | undefined>;
  const number = (name: keyof typeof DEFAULTS) => positive(name, given[name] as string | undefined, DEFAULTS[name]);
  const candidates = values.candidates === undefined ? DEFAULT_CANDIDATES : String(values.candidates).split(',').filter((name) => name !== '');
  const unknown = candidates.filter((name) => !builtInCandidates.includes(name));
  if (unknown.length > 0) throw new OptionError(`unknown candidates ${unknown.join(', ')}; built in: ${builtInCandidates.join(', ')}`);
  if (!candidates.includes('direct')) throw new OptionError('--candidates must include direct: every ratio is taken against it');
  const options: BenchOptions = {
    candidates,
    rounds: number('rounds'),
    warmUp: number('warm-up'),
    calls: number('calls'),
    inFlight: number('in-flight'),
    behind: number('behind'),
    tools: number('tools'),
    pages: number('pages'),
    largeMib: number('large-mib'),
    callBudgetS: number('call-budget-s'),
    warmUpBudgetS: number('warm-up-budget-s'),
    timeoutS: number('timeout-s'),
    largeTimeoutS: number('large-timeout-s'),
    largeRounds: number('large-rounds'),
    deadlineS: number('deadline-s'),
    outDir: String(values.out ?? 'reports'),
    updateReadme: values['update-readme'] === true,
    ...(values.from === undefined ? {} : { from: values.from }),
  };
  // The kit lists three tools of its own besides the fillers, and streams at most 1 GiB.
  if (options.tools < 3) throw new OptionError('--tools must be at least 3 (the kit\'s own tools)');
  if (options.pages > options.tools) throw new OptionError('--pages cannot exceed --tools');
  if (options.largeMib > 1024) throw new OptionError('--large-mib is at most 1024 (the kit\'s bytes-<N> bound)');
  return options;
}
