import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import { LosslessNumber } from 'lossless-json';
import { parse as parseYaml, type ScalarTag } from 'yaml';
import { isEvidence, plannedChecks } from '../expect/plan.js';
import { scenarioSchema } from '../expect/generate.js';
import { packageRoot, scenariosDir } from '../paths.js';
import { describeSchemaErrors } from '../schema-errors.js';
import { serverProblem } from './server-check.js';
import type { Scenario } from './types.js';
import { expandVariants, type ScenarioCase, type ScenarioFile } from './variants.js';

/**
 * `!exact 9007199254740993`: a number kept digit for digit, as the agent must send it and as no
 * float64 holds it (YAML's own numbers are float64). Only the plain form is admitted, integer or
 * decimal without leading or trailing zeros or an exponent, so its text is its canonical form.
 */
const EXACT_NUMBER: ScalarTag = {
  tag: '!exact',
  resolve(text, onError) {
    if (/^-?(0|[1-9]\d*)(\.\d*[1-9])?$/.test(text)) return new LosslessNumber(text);
    onError(`!exact needs a plain number (no exponent, leading or trailing zeros), got ${JSON.stringify(text)}`);
    return text;
  },
};

export class ScenarioError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
  }
}

/**
 * Bounds on one scenario file, checked before and after it is parsed (docs/scenario-format.md):
 * the largest committed scenario is under 3 KB, and a 10 MB file took seconds and hundreds of MiB
 * to load, so a file past these is refused with a message rather than read. No scenario needs a
 * YAML alias, whose expansion can grow a small file into a huge value.
 */
export const MAX_SCENARIO_BYTES = 64 * 1024;
export const MAX_SCENARIO_DEPTH = 32;

/** How deeply a parsed value nests: a scalar is 0, a list or map one more than its deepest member. */
function depthOf(value: unknown, limit: number): number {
  if (value === null || typeof value !== 'object' || value instanceof LosslessNumber) return 0;
  if (limit <= 0) return 1;
  let deepest = 0;
  for (const member of Object.values(value)) deepest = Math.max(deepest, depthOf(member, limit - 1));
  return deepest + 1;
}

/** One scenario file's text, bounded in size, parsed without aliases and bounded in depth. */
function parseScenarioFile(path: string, file: string): unknown {
  const size = statSync(path).size;
  if (size > MAX_SCENARIO_BYTES) throw new ScenarioError(file, `is ${size} bytes; a scenario file is at most ${MAX_SCENARIO_BYTES}`);
  let data: unknown;
  try {
    data = parseYaml(readFileSync(path, 'utf8'), { uniqueKeys: true, customTags: [EXACT_NUMBER], maxAliasCount: 0 });
  } catch (error) {
    throw new ScenarioError(file, `not valid YAML: ${(error as Error).message}`);
  }
  if (depthOf(data, MAX_SCENARIO_DEPTH) > MAX_SCENARIO_DEPTH) throw new ScenarioError(file, `nests deeper than ${MAX_SCENARIO_DEPTH} levels`);
  return data;
}


export interface LoadOptions {
  dir?: string;
  /** Requirement ids that scenarios may cite. */
  requirementIds: ReadonlySet<string>;
  /** Hostile-server ids that scenarios may name. */
  serverIds: ReadonlySet<string>;
}

/** Every file below `dir` whose name `wanted` accepts, folders and files in name order. */
export function* filesBelow(dir: string, wanted: (name: string) => boolean): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesBelow(path, wanted);
    else if (wanted(entry.name)) yield path;
  }
}

/**
 * Every scenario file below `dir`, in the order a load reads them: YAML by either of its
 * extensions, so that a scenario saved as `.yml` is loaded (and checked, and part of the kept
 * catalogue's key, which is taken over this same walk) rather than silently passed over.
 */
export const scenarioFiles = (dir: string = scenariosDir): Generator<string> => filesBelow(dir, (name) => /\.ya?ml$/.test(name));

let compiled: ReturnType<typeof compileFresh> | undefined;

/** The scenario schema, compiled once per process: it is made from the modules and never changes while one runs. */
function compileSchema() {
  compiled ??= compileFresh();
  return compiled;
}

function compileFresh() {
  // verbose: each error carries the value and the schema around it, which its message names.
  const ajv = new Ajv2020.default({ allErrors: true, strict: true, allowUnionTypes: true, verbose: true });
  // Made from the expectation modules, so the loader and the committed schema file cannot differ.
  const schema = scenarioSchema() as { $id: string };
  const validate = ajv.compile(schema);
  return { validate, validateContract: ajv.getSchema(`${schema.$id}#/$defs/contract`)! };
}

/**
 * A contract must have the shape of docs/result-path.md, except in a scenario that shows a
 * candidate a flawed one to refuse (its start expects `refused-before-launch`): anywhere else a
 * misshapen contract is the scenario's own mistake.
 */
function contractProblem(scenario: ScenarioCase, validateContract: ValidateFunction): string | undefined {
  const refusing = scenario.steps.some((step) => 'start' in step && step.start.expect.outcome === 'refused-before-launch');
  if (refusing) return undefined;
  const members = Object.values(scenario.operator.servers ?? {});
  for (const [tool, rule] of [scenario.operator, ...members].flatMap((part) => Object.entries(part.tools))) {
    if (rule.contract === undefined || validateContract(rule.contract)) continue;
    const why = describeSchemaErrors(validateContract.errors, 'the contract');
    return `the contract of ${tool} does not have the shape of an effect contract (${why}); only a scenario expecting refused-before-launch may give another`;
  }
  return undefined;
}

/** What a scenario naming several servers must not also say at the top level of `operator`. */
const PER_SERVER_OPERATOR = ['tools', 'prefix', 'env', 'source_version', 'server_url', 'allow_private_origin'] as const;

/**
 * A scenario naming several servers, checked for what the schema cannot say (the operator
 * configures exactly the servers the scenario names, each in its own block) and given the shape
 * the runner reads: `server` is the first of them and the shared `tools` is empty. Any other
 * scenario comes back as it is.
 */
function withServers(scenario: ScenarioCase): ScenarioCase | string {
  const { servers, operator } = scenario;
  if ((scenario.server === undefined) === (servers === undefined)) return 'a scenario names exactly one of server and servers';
  if (servers === undefined) {
    if (operator.servers !== undefined) return 'operator.servers needs servers';
    return operator.tools === undefined ? 'operator.tools is required' : scenario;
  }
  const named = Object.keys(servers);
  const configured = Object.keys(operator.servers ?? {});
  if (named.join() !== configured.join()) return `operator.servers must configure exactly the servers named, in their order (${named.join(', ')}), not ${configured.join(', ') || 'none'}`;
  const shared = PER_SERVER_OPERATOR.filter((key) => operator[key] !== undefined);
  if (shared.length > 0) return `with several servers, ${shared.join(', ')} belong in each server's block of operator.servers`;
  // A pin of another catalogue server, and a flaw in "the first rule", each assume one server.
  if (scenario.steps.some((step) => ('pin' in step && step.pin?.server !== undefined) || ('start' in step && step.start.flaw !== undefined))) {
    return 'with several servers, no pin step names a server and no start has a flaw';
  }
  return { ...scenario, server: servers[named[0]!]!, operator: { ...operator, tools: {} } };
}

/**
 * Loads every scenario file and checks what one file cannot check alone: unique ids, cited
 * requirements that exist, known hostile servers, and attacks whose control is a real control.
 * Any problem stops the load with a message naming the file, because a suite that silently drops
 * a malformed scenario reports a pass it never earned.
 */
export function loadScenarios(options: LoadOptions): Scenario[] {
  const { validate, validateContract } = compileSchema();
  const dir = options.dir ?? scenariosDir;
  const byId = new Map<string, Scenario>();
  for (const path of scenarioFiles(dir)) {
    const file = relative(packageRoot, path);
    const data = parseScenarioFile(path, file);
    if (!validate(data)) {
      throw new ScenarioError(file, `does not match the scenario schema: ${describeSchemaErrors(validate.errors, 'the scenario')}`);
    }
    const cases = expandVariants(data as ScenarioFile);
    if (typeof cases === 'string') throw new ScenarioError(file, cases);
    for (const scenario of cases) byId.set(scenario.id, checkedCase(scenario, file, byId, options, validateContract));
  }
  for (const scenario of byId.values()) {
    if (scenario.kind !== 'attack') continue;
    const control = byId.get(scenario.control ?? '');
    if (!control) throw new ScenarioError(scenario.file, `its control ${scenario.control} does not exist`);
    if (control.kind !== 'control') throw new ScenarioError(scenario.file, `its control ${scenario.control} is not a control`);
  }
  return [...byId.values()];
}

/**
 * One case of a scenario file, checked for what the schema cannot say: its shape with several
 * servers, its contracts, evidence for its kind, an id no earlier case holds, and the
 * requirements, hostile servers and knobs it names. Each case of a file with variants is checked
 * on its own, since an axis may change its servers (scenario/variants.ts).
 */
function checkedCase(expanded: ScenarioCase, file: string, byId: ReadonlyMap<string, Scenario>, options: LoadOptions, validateContract: ValidateFunction): Scenario {
  const shaped = withServers(expanded);
  if (typeof shaped === 'string') throw new ScenarioError(file, shaped);
  const scenario = { ...shaped, file };
  const misshapen = contractProblem(scenario, validateContract);
  if (misshapen !== undefined) throw new ScenarioError(file, misshapen);
  // An attack proven only by the broker's own words, or a control that checks no benign use,
  // can be passed without holding anything (docs/expectations.md).
  const planned = plannedChecks(scenario);
  if (!planned.some((check) => isEvidence(scenario, check))) {
    throw new ScenarioError(file, scenario.kind === 'attack' ? 'an attack needs a harm or record check' : 'a control needs a benign check');
  }
  // A broker's own records are what attacks judge; a control proves the benign use, which a
  // broker that keeps no record still serves.
  const record = planned.find((check) => check.class === 'record');
  if (scenario.kind === 'control' && record !== undefined) throw new ScenarioError(file, `a control makes no record check (${record.check})`);
  const earlier = byId.get(scenario.id);
  if (earlier) throw new ScenarioError(file, `id ${scenario.id} is already used by ${earlier.file}`);
  for (const id of scenario.requirements) {
    if (!options.requirementIds.has(id)) throw new ScenarioError(file, `cites unknown requirement ${id}`);
  }
  const pinned = scenario.steps.flatMap((step) => ('pin' in step && step.pin?.server !== undefined ? [step.pin.server] : []));
  const catalogues = Object.values(scenario.servers ?? { server: scenario.server }).map((server) => server.catalogue);
  for (const server of [...catalogues, ...pinned]) {
    if (!options.serverIds.has(server)) throw new ScenarioError(file, `names unknown hostile server ${server}`);
  }
  for (const [name, server] of Object.entries(scenario.servers ?? { server: scenario.server })) {
    const problem = serverProblem(name, server);
    if (problem !== undefined) throw new ScenarioError(file, problem);
  }
  return scenario;
}

/** Glob over ids: `*` matches any run of characters, `?` one character. */
export function matchesGlob(id: string, glob: string): boolean {
  const pattern = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${pattern}$`).test(id);
}
