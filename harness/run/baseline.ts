import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { packageRoot } from '../paths.js';
import { describeSchemaErrors } from '../schema-errors.js';
import type { CaseResult } from './outcome.js';

export const BASELINE_FORMAT = 'mcp-gauntlet-baseline/1';
/** The check of an entry for the case itself: an `error`, or a `fail` that names no check. */
export const WHOLE_CASE = '*';
/** What `--write-baseline` puts where a person must say why; a run refuses it (exit 2). */
export const REASON_PLACEHOLDER = 'TODO: say why this failure is accepted';

export const baselineSchemaFile = join(packageRoot, 'harness', 'run', 'baseline.schema.json');

export interface BaselineEntry {
  scenario: string;
  check: string;
  reason: string;
}

export interface Baseline {
  file: string;
  entries: BaselineEntry[];
}

/** Why an entry fails the run although the failure it lists did not happen. */
export type StaleWhy = 'no-longer-fails' | 'unknown-scenario' | 'unknown-check' | 'duplicate';

/** What a baseline made of a run: listed failures, unlisted ones, and entries that are wrong. */
export interface BaselineVerdict {
  file: string;
  /** Failures the baseline lists, with its reason. */
  expected: BaselineEntry[];
  /** Failures it does not list: these fail the run. */
  unexpected: Array<{ scenario: string; check: string }>;
  /** Entries that fail the run: they list a failure that did not happen or cannot happen. */
  stale: Array<BaselineEntry & { why: StaleWhy }>;
  /** Entries for scenarios of the catalogue this run did not judge (filtered out, another shard, unsupported). */
  not_judged: number;
}

/** A baseline that cannot be used: the run could not start (exit 2). */
export class BaselineError extends Error {}

const validate = new Ajv2020.default({ allErrors: true, strict: true, verbose: true }).compile(JSON.parse(readFileSync(baselineSchemaFile, 'utf8')) as object);

const keyOf = (scenario: string, check: string) => `${scenario}\u0000${check}`;

/** Reads a baseline (YAML, of which JSON is a subset), refusing an invalid one or one with placeholder reasons. */
export function parseBaseline(text: string, file: string): Baseline {
  let data: unknown;
  try {
    data = parseYaml(text);
  } catch (error) {
    throw new BaselineError(`${file}: not YAML or JSON: ${(error as Error).message}`);
  }
  if (!validate(data)) {
    throw new BaselineError(`${file}: not a baseline (${baselineSchemaFile}): ${describeSchemaErrors(validate.errors, 'the baseline')}`);
  }
  const entries = (data as { entries: BaselineEntry[] }).entries;
  const placeholders = entries.filter((entry) => entry.reason.trim() === REASON_PLACEHOLDER);
  if (placeholders.length > 0) {
    const named = placeholders.map((entry) => `${entry.scenario} ${entry.check}`).join(', ');
    throw new BaselineError(`${file}: ${placeholders.length} entr${placeholders.length === 1 ? 'y still has' : 'ies still have'} the placeholder reason; say why each failure is accepted: ${named}`);
  }
  return { file, entries };
}

export function readBaseline(file: string): Baseline {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new BaselineError(`cannot read baseline ${file}: ${(error as Error).message}`);
  }
  return parseBaseline(text, file);
}

/** The keys a failing case is listed under: each check it failed, and `*` for an error or a fail without findings. */
export function failureKeys(c: CaseResult): string[] {
  if (c.outcome !== 'fail' && c.outcome !== 'error') return [];
  const checks = [...new Set(c.findings.map((finding) => finding.check))];
  return c.outcome === 'error' || checks.length === 0 ? [...checks, WHOLE_CASE] : checks;
}

/**
 * Judges a run against a baseline. `known` holds every scenario of the catalogue with the checks it
 * can report, so that an entry naming nothing real is stale rather than silently never matching.
 */
export function applyBaseline(baseline: Baseline, cases: readonly CaseResult[], known: ReadonlyMap<string, ReadonlySet<string>>): BaselineVerdict {
  const judged = new Map(cases.filter((c) => c.outcome === 'pass' || c.outcome === 'fail' || c.outcome === 'error').map((c) => [c.id, c]));
  const verdict: BaselineVerdict = { file: baseline.file, expected: [], unexpected: [], stale: [], not_judged: 0 };
  const listed = new Map<string, BaselineEntry>();
  for (const entry of baseline.entries) {
    const key = keyOf(entry.scenario, entry.check);
    const checks = known.get(entry.scenario);
    if (listed.has(key)) verdict.stale.push({ ...entry, why: 'duplicate' });
    else if (checks === undefined) verdict.stale.push({ ...entry, why: 'unknown-scenario' });
    else if (entry.check !== WHOLE_CASE && !checks.has(entry.check)) verdict.stale.push({ ...entry, why: 'unknown-check' });
    else {
      listed.set(key, entry);
      const c = judged.get(entry.scenario);
      if (c === undefined) verdict.not_judged += 1;
      else if (!failureKeys(c).includes(entry.check)) verdict.stale.push({ ...entry, why: 'no-longer-fails' });
    }
  }
  for (const c of cases) {
    for (const check of failureKeys(c)) {
      const entry = listed.get(keyOf(c.id, check));
      if (entry === undefined) verdict.unexpected.push({ scenario: c.id, check });
      else verdict.expected.push(entry);
    }
  }
  return verdict;
}

/** Whether every way the case failed is listed: a failure the baseline expects. */
export function isExpectedFailure(c: CaseResult, verdict: BaselineVerdict): boolean {
  const keys = failureKeys(c);
  return keys.length > 0 && keys.every((check) => verdict.expected.some((entry) => entry.scenario === c.id && entry.check === check));
}

/**
 * Writes a baseline listing every current failure. A reason the previous baseline gave for the same
 * entry is kept; every other entry gets the placeholder, which a run refuses until it is replaced.
 * YAML for a `.yaml`/`.yml` file, JSON otherwise.
 */
export async function writeBaseline(file: string, candidate: string, cases: readonly CaseResult[], previous?: Baseline): Promise<BaselineEntry[]> {
  const reasons = new Map((previous?.entries ?? []).map((entry) => [keyOf(entry.scenario, entry.check), entry.reason]));
  const entries = cases.flatMap((c) => failureKeys(c).map((check) => ({ scenario: c.id, check, reason: reasons.get(keyOf(c.id, check)) ?? REASON_PLACEHOLDER })));
  const data = { format: BASELINE_FORMAT, candidate, entries };
  await writeFile(file, /\.ya?ml$/i.test(file) ? stringifyYaml(data) : `${JSON.stringify(data, null, 2)}\n`);
  return entries.filter((entry) => entry.reason === REASON_PLACEHOLDER);
}
