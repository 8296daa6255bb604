import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../temp-dirs.js';
import { loadCatalogue } from '../../harness/catalogue.js';
import { loadScenarios, MAX_SCENARIO_BYTES, MAX_SCENARIO_DEPTH } from '../../harness/scenario/load.js';

const control = (server: string, extra = '') => `id: x.benign
title: A benign control for the loader tests
requirements: [PIN-2]
level: MUST
kind: control
claims: [pinning]
description: A control that proves the benign path works.${extra}
server: ${server}
operator: { tools: { search_notes: { effect: read_only } } }
steps:
  - start: { expect: { outcome: ready } }
`;

const scenarioDir = tempDirs('gauntlet-bounds-');
const load = (text: string) => {
  const dir = scenarioDir();
  writeFileSync(join(dir, 'a.yaml'), text);
  return loadScenarios({ dir, requirementIds: new Set(['PIN-2']), serverIds: new Set(['notes']) });
};

describe('the loader checks every knob and address of a server, whatever its transport', () => {
  it.each(['stdio', 'http'])('refuses an unknown knob, and a bad value of a known one, over %s', (transport) => {
    // One case of each revision.
    expect(load(control(`{ catalogue: notes, transport: ${transport}, knobs: { filler: 3 } }`))).toHaveLength(2);
    expect(() => load(control(`{ catalogue: notes, transport: ${transport}, knobs: { no_such_knob: 1 } }`))).toThrow(/a\.yaml: server \(notes\): .*no_such_knob/);
    expect(() => load(control(`{ catalogue: notes, transport: ${transport}, knobs: { filler: lots } }`))).toThrow(/a\.yaml: server \(notes\): .*filler/);
  });

  it('refuses a knob the transport cannot serve (a redirect to an address the server does not listen on)', () => {
    expect(() => load(control('{ catalogue: notes, transport: http, knobs: { http_redirect_to: 10.0.0.9 } }'))).toThrow(/a\.yaml: .*http_redirect_to/);
  });

  it('refuses an address that is no IP address, in listen, hosts and resolves', () => {
    // The schema's pattern refuses an octet past 255; the loader's own check, any other non-address.
    expect(() => load(control('{ catalogue: notes, transport: http, listen: 999.0.0.5 }'))).toThrow(/a\.yaml: does not match the scenario schema: server\.listen is "999\.0\.0\.5", which does not match /);
    expect(() => load(control('{ catalogue: notes, transport: http, listen: [10.0.0.5, "1:2:3"] }'))).toThrow(/a\.yaml: .*"1:2:3" is not an IP address/);
    expect(() => load(control('{ catalogue: notes, transport: http, hosts: { a.example: 10.0.0.256 } }'))).toThrow(/a\.yaml: does not match the scenario schema: server\.hosts\["a\.example"\] is "10\.0\.0\.256", which does not match /);
    expect(() => load(control('{ catalogue: notes, transport: http, resolves: { a.example: [300.1.1.1] } }'))).toThrow(/a\.yaml: does not match the scenario schema: server\.resolves\["a\.example"\]\[0\] is "300\.1\.1\.1", which does not match /);
    expect(() => load(control('{ catalogue: notes, transport: http, hosts: { a.example: "1:2:3" } }'))).toThrow(/a\.yaml: server: "1:2:3" is not an IP address/);
    expect(load(control('{ catalogue: notes, transport: http, listen: [10.0.0.5, "fd00::5"] }'))).toHaveLength(2);
  });

  it('loads every committed scenario under these checks', () => {
    expect(loadCatalogue().length).toBeGreaterThan(300);
  });
});

describe('the loader bounds a scenario file', () => {
  it(`refuses a file over ${MAX_SCENARIO_BYTES} bytes before reading it`, () => {
    const padded = control('{ catalogue: notes }', `\n# ${'x'.repeat(10 * 1024 * 1024)}`);
    expect(() => load(padded)).toThrow(new RegExp(`a\\.yaml: is \\d+ bytes; a scenario file is at most ${MAX_SCENARIO_BYTES}`));
  });

  it('refuses YAML aliases, which can expand a small file into a huge value', () => {
    expect(() => load(`${control('&s { catalogue: notes }')}x_copy: *s\n`)).toThrow(/a\.yaml: not valid YAML: .*[Aa]lias/);
  });

  it(`refuses nesting deeper than ${MAX_SCENARIO_DEPTH} levels`, () => {
    const deep = `${'['.repeat(MAX_SCENARIO_DEPTH + 1)}1${']'.repeat(MAX_SCENARIO_DEPTH + 1)}`;
    expect(() => load(control('{ catalogue: notes }').replace('steps:', `x_deep: ${deep}\nsteps:`))).toThrow(/a\.yaml: nests deeper than 32 levels/);
  });
});
