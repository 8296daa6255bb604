// The scenario loader on hostile files: a catalogue scenario with any member removed or replaced
// by any YAML value, at any depth, and YAML-ish text of random tokens, each either loads or is
// refused with a ScenarioError naming the file, never another exception: a scenario file is input
// the suite reads from whoever wrote it.
// `npm test` runs a fixed seed; `npm run fuzz` a random one (test/fuzz.ts).

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { loadScenarios, ScenarioError } from '../../harness/scenario/load.js';
import { scenariosDir } from '../../harness/paths.js';
import { fuzzParameters } from '../fuzz.js';

// Each case compiles the scenario schema (loadScenarios does, once per load): a few cases here,
// a fortieth of the others' under `npm run fuzz`, with the time that takes.
const PARAMETERS = fuzzParameters('scenario-loader', 3, 40);
const TIMEOUT_MS = Math.max(60_000, PARAMETERS.numRuns * 5_000);

/** Scenarios of several shapes: stdio and HTTP, one and several servers, an attack and controls. */
const SAMPLES = ['results/at-cap.yaml', 'results/cap-on-surrogate.yaml', 'network/private-origin-opt-in.yaml', 'multi-server/name-taken-directly.yaml', 'pinning/pin-unchanged.yaml']
  .map((file) => join(scenariosDir, file))
  .flatMap((path) => {
    try {
      return [readFileSync(path, 'utf8')];
    } catch {
      return []; // a sample the catalogue renamed; the others still run
    }
  });

const dir = mkdtempSync(join(tmpdir(), 'gauntlet-loader-fuzz-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Loads one file as the whole catalogue; any outcome but a load or a ScenarioError fails. */
function loadOne(text: string): void {
  writeFileSync(join(dir, 'fuzzed.yaml'), text);
  try {
    loadScenarios({ dir, requirementIds: new Set(['PIN-2', 'RES-1', 'NET-1']), serverIds: new Set(['notes', 'oversized-result']) });
  } catch (error) {
    expect(error).toBeInstanceOf(ScenarioError);
    expect((error as ScenarioError).message).toContain('fuzzed.yaml');
  }
}

const yamlValue = fc.oneof(
  fc.constantFrom(null, true, 0, -1, 1e300, '', 'ready', 'refused-before-launch', '9007199254740993', [], {}),
  fc.jsonValue({ maxDepth: 2 }),
  fc.string({ maxLength: 10 }),
);

/** Replaces or deletes the member at a random path of a parsed scenario. */
function mutate(value: unknown, path: number[], replacement: unknown, remove: boolean): unknown {
  if (path.length === 0 || value === null || typeof value !== 'object') return replacement;
  const [step, ...rest] = path as [number, ...number[]];
  if (Array.isArray(value)) {
    if (value.length === 0) return replacement;
    const at = step % value.length;
    const copy = [...value];
    if (rest.length === 0 && remove) copy.splice(at, 1);
    else copy[at] = mutate(copy[at], rest, replacement, remove);
    return copy;
  }
  const keys = Object.keys(value);
  if (keys.length === 0) return replacement;
  const key = keys[step % keys.length]!;
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  if (rest.length === 0 && remove) delete copy[key];
  else copy[key] = mutate(copy[key], rest, replacement, remove);
  return copy;
}

describe('the scenario loader on hostile files', () => {
  it('loads or refuses, naming the file, a catalogue scenario with one member removed or replaced', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SAMPLES), fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), yamlValue, fc.boolean(), (text, path, replacement, remove) => {
        loadOne(stringify(mutate(parse(text, { customTags: [{ tag: '!exact', resolve: (t: string) => t }] }), path, replacement, remove)));
      }),
      PARAMETERS,
    );
  }, TIMEOUT_MS);

  it('loads or refuses, naming the file, YAML-ish text of random tokens', () => {
    const token = fc.constantFrom('id: x', 'kind: attack', 'steps:', '  - start:', '- ', ': ', '{', '}', '[', ']', '&a ', '*a', '!exact 1', '!exact 01', '<<: *a', '"\\u0000"', "'", '---', '...', '? ', '|', '\t', '\n', '  ', '#', '%YAML 1.2', '!!binary x', 'server: { catalogue: notes }');
    fc.assert(
      fc.property(fc.array(token, { maxLength: 30 }), (tokens) => {
        loadOne(tokens.join(''));
      }),
      PARAMETERS,
    );
  }, TIMEOUT_MS);
});
