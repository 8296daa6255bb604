// The checked catalogue, kept between runs. Every run loads the whole catalogue, whatever it
// selects, so that a malformed scenario anywhere stops it (load.ts); parsing the 393 YAML files and
// compiling the scenario schema cost about a second of every `gauntlet` command, more than a
// filtered run's one scenario. What one full load returned is kept under a key that is the
// SHA-256 of everything that load read or ran: each scenario file's path and bytes, the
// requirement and hostile-server ids it was checked against, the code of the harness and the kit
// (which generates the schema and makes every check), and the versions of Node and of the
// packages that parsed and checked it. Any change to any of them is a miss, and a miss is a full
// load, which then replaces the kept one.

import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LosslessNumber } from 'lossless-json';
import { packageRoot } from '../paths.js';
import { filesBelow, MAX_SCENARIO_BYTES } from './load.js';
import type { Scenario } from './types.js';

/** Bumped whenever what is kept changes shape. */
const FORMAT = 1;

/**
 * Where the catalogue is kept: the package's own `node_modules/.cache`, where build tools keep
 * theirs. An install that cannot write there runs without it.
 */
export const defaultCacheDir = join(packageRoot, 'node_modules', '.cache', 'mcp-gauntlet');

/** An `!exact` number, kept as its text: JSON's own numbers would read back as float64. */
const EXACT = '!exact';

/** The harness's code, here or compiled (this module's grandparent), and the kit's beside it. */
const HARNESS_DIR = dirname(dirname(fileURLToPath(import.meta.url)));
const CODE_DIRS = [HARNESS_DIR, join(dirname(HARNESS_DIR), 'servers')];
const isCode = (name: string): boolean => /\.(?:c?js|ts)$/.test(name) && !name.endsWith('.d.ts');
const PACKAGE_MANIFESTS = [join(packageRoot, 'package.json'), join(packageRoot, 'package-lock.json')];

/**
 * One file for each place the code runs from, so that the compiled harness (the command line) and
 * its sources (the test suite) do not replace each other's: at most two files.
 */
const CACHE_FILE = `catalogue-${createHash('sha256').update(CODE_DIRS.join('\n')).digest('hex').slice(0, 16)}.json`;

/** What one load of the catalogue depends on. */
export interface CatalogueInputs {
  /** Each scenario file, by its path, in the order the load reads them. */
  readonly files: readonly string[];
  readonly requirementIds: ReadonlySet<string>;
  readonly serverIds: ReadonlySet<string>;
}

/**
 * The key of a load: one hash over its inputs, each part framed by its length so that no two
 * sets of parts run together. Undefined when a scenario file is past the loader's bound: the load
 * refuses it without reading it whole, and so is the key not made of it.
 */
export function catalogueKey(inputs: CatalogueInputs, codeDirs: readonly string[] = CODE_DIRS): string | undefined {
  const hash = createHash('sha256');
  const part = (data: string | Buffer) => {
    hash.update(`${Buffer.byteLength(data)}:`);
    hash.update(data);
  };
  part(`format ${FORMAT}`);
  // The parsers the load used: Node's own, and the packages (yaml, ajv, lossless-json) pinned to
  // exact versions in package.json and, in a checkout, to exact trees in package-lock.json.
  part(process.version);
  for (const manifest of PACKAGE_MANIFESTS) part(existsSync(manifest) ? readFileSync(manifest) : '');
  for (const ids of [inputs.requirementIds, inputs.serverIds]) part([...ids].sort().join('\n'));
  for (const file of inputs.files) {
    if (statSync(file).size > MAX_SCENARIO_BYTES) return undefined;
    part(relative(packageRoot, file));
    part(readFileSync(file));
  }
  for (const dir of codeDirs) {
    for (const file of filesBelow(dir, isCode)) {
      part(relative(packageRoot, file));
      part(readFileSync(file));
    }
  }
  return hash.digest('hex');
}

/** JSON with each LosslessNumber as `{"!exact": text}`; undefined when an object of the catalogue has that key itself. */
function encode(scenarios: readonly Scenario[]): string | undefined {
  let ambiguous = false;
  const text = JSON.stringify(scenarios, function (this: Record<string, unknown>, key: string, value: unknown) {
    // The replacer sees the value after toJSON; `this[key]` is the value itself.
    const own = key === '' ? value : this[key];
    if (own instanceof LosslessNumber) return { [EXACT]: own.toString() };
    if (own !== null && typeof own === 'object' && !Array.isArray(own) && Object.hasOwn(own, EXACT)) ambiguous = true;
    return value;
  });
  return ambiguous ? undefined : text;
}

function decode(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown) => {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const keys = Object.keys(value);
      const exact = (value as Record<string, unknown>)[EXACT];
      if (keys.length === 1 && typeof exact === 'string') return new LosslessNumber(exact);
    }
    return value;
  });
}

/** The scenarios kept under `key`, or undefined: nothing kept, another key, or a file that does not read. */
export function readCatalogue(key: string, dir: string = defaultCacheDir): Scenario[] | undefined {
  let kept: unknown;
  try {
    kept = decode(readFileSync(join(dir, CACHE_FILE), 'utf8'));
  } catch {
    return undefined;
  }
  if (kept === null || typeof kept !== 'object') return undefined;
  const { format, key: keptKey, scenarios } = kept as Record<string, unknown>;
  return format === FORMAT && keptKey === key && Array.isArray(scenarios) ? (scenarios as Scenario[]) : undefined;
}

/**
 * Keeps `scenarios` under `key`, written whole to a file of its own and renamed into place, so
 * that runs started together (the test suite's) never read half of one. Where it cannot be
 * written nothing is kept, and the next run loads in full.
 */
export function writeCatalogue(key: string, scenarios: readonly Scenario[], dir: string = defaultCacheDir): void {
  const encoded = encode(scenarios);
  if (encoded === undefined) return;
  try {
    mkdirSync(dir, { recursive: true });
  } catch {
    return;
  }
  // Named for this write alone: threads of one process (a test runner's) share its pid.
  const temporary = join(dir, `${CACHE_FILE}.${randomUUID()}.tmp`);
  try {
    writeFileSync(temporary, `{"format":${FORMAT},"key":"${key}","scenarios":${encoded}}`);
    renameSync(temporary, join(dir, CACHE_FILE));
  } catch {
    rmSync(temporary, { force: true });
  }
}
