import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isLosslessNumber } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../temp-dirs.js';
import { loadCatalogue } from '../../harness/catalogue.js';
import { loadScenarios, matchesGlob } from '../../harness/scenario/load.js';

const control = `id: x.benign
title: A benign control for the loader tests
requirements: [PIN-2]
level: MUST
kind: control
claims: [pinning]
description: A control that proves the benign path works.
server: { catalogue: notes }
operator: { tools: { search_notes: { effect: read_only } } }
steps:
  - start: { expect: { outcome: ready } }
`;
const attack = `${control
  .replace('id: x.benign', 'id: x.attack')
  .replace('kind: control', 'kind: attack\ncontrol: x.benign')}  - list: { expect: { excludes: [write_note] } }
`;

const makeDir = tempDirs('gauntlet-loader-');
function scenarioDir(files: Record<string, string>): string {
  const dir = makeDir();
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}
const load = (files: Record<string, string>) =>
  loadScenarios({ dir: scenarioDir(files), requirementIds: new Set(['PIN-2']), serverIds: new Set(['notes']) });

describe('scenario loader', () => {
  it('loads a well-formed attack with its control', () => {
    const scenarios = load({ 'a.yaml': attack, 'b.yaml': control });
    // Each file runs under each revision; the 2025-11-25 case keeps the file's id.
    expect(scenarios.map((s) => s.id).sort()).toEqual(['x.attack', 'x.attack.2026-07-28', 'x.benign', 'x.benign.2026-07-28']);
  });

  it('loads a scenario saved as .yml as it loads one saved as .yaml', () => {
    const scenarios = load({ 'a.yml': attack, 'b.yaml': control });
    expect(scenarios.map((s) => [s.id, s.file.replace(/^.*[\\/]/, '')])).toEqual([
      ['x.attack', 'a.yml'],
      ['x.attack.2026-07-28', 'a.yml'],
      ['x.benign', 'b.yaml'],
      ['x.benign.2026-07-28', 'b.yaml'],
    ]);
    expect(() => load({ 'a.yml': attack })).toThrow(/a\.yml: its control x\.benign does not exist/);
  });

  it('refuses an attack proven only by the broker\'s own words, and a control that checks no benign use', () => {
    const wordsOnly = attack.replace('  - list: { expect: { excludes: [write_note] } }', '  - call: { tool: write_note, expect: { agent: refused, code: policy_denied } }');
    expect(() => load({ 'a.yaml': wordsOnly, 'b.yaml': control })).toThrow(/a\.yaml: an attack needs a harm or record check/);
    const noBenign = control.replace('outcome: ready', 'outcome: refused-before-launch');
    expect(() => load({ 'b.yaml': noBenign })).toThrow(/b\.yaml: a control needs a benign check/);
  });

  it('names the file of a scenario that does not match the schema', () => {
    expect(() => load({ 'bad.yaml': control.replace('kind: control', 'kind: maybe') })).toThrow(/bad\.yaml: does not match the scenario schema.*kind/);
  });

  it('refuses unknown keys, so a misspelled expectation cannot silently assert nothing', () => {
    const typo = control.replace('outcome: ready', 'outcome: ready, servers_alve: 0');
    expect(() => load({ 'typo.yaml': typo })).toThrow(/typo\.yaml: does not match/);
  });

  it('says where each schema error is and what to write instead: the unknown key and its nearest allowed key, the allowed values, the missing key', () => {
    const message = (text: string) => {
      try {
        load({ 'a.yaml': text });
      } catch (error) {
        return (error as Error).message.replace(/^.*a\.yaml: does not match the scenario schema: /, '');
      }
      throw new Error('the scenario loaded');
    };
    expect(message(control.replace('outcome: ready', 'outcome: ready, servers_alve: 0'))).toBe('steps[0].start.expect: unknown key "servers_alve"; did you mean servers_alive?');
    expect(message(control.replace('  - start', '  - strat'))).toBe('steps[0]: unknown key "strat"; did you mean start?');
    expect(message(control.replace('title:', 'titel:'))).toBe('the scenario: missing key "title"; the scenario: unknown key "titel"; did you mean title?');
    expect(message(control.replace('kind: control', 'kind: maybe'))).toBe('kind is "maybe", not one of "attack", "control"');
    expect(message(control.replace('effect: read_only', 'effect: read_onyl'))).toMatch(/^operator\.tools\.search_notes\.effect is "read_onyl", not one of "read_only", .*; did you mean read_only\?$/);
    // A key near none of those allowed: the message lists them.
    expect(message(control.replace('server: { catalogue: notes }', 'server: { catalogue: notes, zzzzzzzz: 1 }'))).toMatch(/^server: unknown key "zzzzzzzz"; allowed keys: catalogue, .*knobs/);
    expect(message(control.replace('level: MUST', 'level: [MUST]'))).toMatch(/^level is \["MUST"\], not one of "MUST", "SHOULD"/);
  });

  it('refuses a duplicate id, naming both files', () => {
    expect(() => load({ 'a.yaml': control, 'b.yaml': control })).toThrow(/b\.yaml: id x\.benign is already used by .*a\.yaml/);
  });

  it('refuses an unknown requirement id', () => {
    expect(() => load({ 'a.yaml': control.replace('[PIN-2]', '[PIN-99]') })).toThrow(/a\.yaml: cites unknown requirement PIN-99/);
  });

  it('refuses an unknown hostile server', () => {
    expect(() => load({ 'a.yaml': control.replace('catalogue: notes', 'catalogue: nowhere') })).toThrow(/unknown hostile server nowhere/);
  });

  it('refuses a pin step naming an unknown hostile server', () => {
    const other = control.replace('steps:\n', 'steps:\n  - pin: { server: elsewhere }\n');
    expect(() => load({ 'a.yaml': other })).toThrow(/a\.yaml: names unknown hostile server elsewhere/);
    expect(load({ 'a.yaml': other.replace('elsewhere', 'notes') })).toHaveLength(2);
  });

  it('refuses an attack without a control, or whose control is an attack', () => {
    expect(() => load({ 'a.yaml': attack.replace('control: x.benign\n', '') })).toThrow(/does not match/);
    expect(() => load({ 'a.yaml': attack })).toThrow(/its control x\.benign does not exist/);
    const otherAttack = attack.replace('id: x.attack', 'id: x.benign');
    expect(() => load({ 'a.yaml': attack, 'b.yaml': otherAttack })).toThrow(/is not a control/);
  });

  it('refuses YAML with a repeated key', () => {
    expect(() => load({ 'a.yaml': `${control}level: SHOULD\n` })).toThrow(/a\.yaml: not valid YAML/);
  });

  it('keeps an !exact number digit for digit, and admits it only in plain form', () => {
    const withCall = (literal: string) =>
      control.replace('steps:\n', `steps:\n  - call: { tool: search_notes, arguments: { limit: !exact ${literal} }, expect: { agent: result } }\n`);
    const [scenario] = load({ 'a.yaml': withCall('9007199254740993') });
    const step = scenario?.steps[0];
    const limit = step !== undefined && 'call' in step ? step.call.arguments?.['limit'] : undefined;
    expect(isLosslessNumber(limit) && limit.value).toBe('9007199254740993');
    for (const literal of ['9.007199254740993e15', '007', '1.50', 'twelve']) {
      expect(() => load({ 'a.yaml': withCall(literal) }), literal).toThrow(/a\.yaml: not valid YAML.*!exact needs a plain number/s);
    }
  });

  it('admits a contract of another shape only in a scenario whose start expects refused-before-launch', () => {
    const withContract = (contract: string, outcome: string) =>
      control
        .replace('operator: { tools: { search_notes: { effect: read_only } } }', `operator: { tools: { write_note: { effect: local_change, contract: ${contract} } } }`)
        .replace('outcome: ready', `outcome: ${outcome}`);
    const good = '{ readback: { tool: read_note, arguments: { id: { from: arguments, pointer: /id } } }, checks: [{ left: { from: readback, pointer: /text }, op: present }] }';
    const expression = '{ readback: { tool: read_note, arguments: {} }, checks: [{ expression: "readback.text == 1" }] }';
    expect(load({ 'a.yaml': withContract(good, 'ready') })).toHaveLength(2);
    expect(() => load({ 'a.yaml': withContract(expression, 'ready') })).toThrow(/a\.yaml: the contract of write_note does not have the shape of an effect contract/);
    // The control's later ready start is its benign check.
    expect(load({ 'a.yaml': `${withContract(expression, 'refused-before-launch')}  - start: { expect: { outcome: ready } }\n` })).toHaveLength(2);
  });

  it('matches ids with globs', () => {
    expect(matchesGlob('pin.float-drift', 'pin.*')).toBe(true);
    expect(matchesGlob('pin.float-drift', '*.float-?rift')).toBe(true);
    expect(matchesGlob('pinxfloat', 'pin.*')).toBe(false);
  });
});

const reached = `id: x.reached
title: A server reached by its URL for the loader tests
requirements: [PIN-2]
level: MUST
kind: control
claims: [pinning]
description: A control that proves the benign path works over either scheme.
revisions: [2025-11-25]
variants: { scheme: [http, https] }
server: { catalogue: notes, transport: http }
operator:
  server_url: "{scheme}://127.0.0.1:{port}/mcp"
  allow_private_origin: "{scheme}://127.0.0.1:{port}"
  tools: { search_notes: { effect: read_only } }
steps:
  - start: { expect: { outcome: ready } }
`;
const refused = reached
  .replace('id: x.reached', 'id: x.refused')
  .replace('kind: control', 'kind: attack\ncontrol: x.reached')
  .replace('  allow_private_origin: "{scheme}://127.0.0.1:{port}"\n', '')
  .replace('outcome: ready', 'outcome: refused-before-connect, reason_includes: [127.0.0.1]');

describe('variant axes', () => {
  it('expands a file into one case per scheme: the base keeps its id, the other is suffixed, paired with its own control, its URLs filled and its server on TLS', () => {
    const scenarios = load({ 'a.yaml': refused, 'b.yaml': reached });
    expect(scenarios.map((s) => [s.id, s.control ?? null, s.variant, s.file.replace(/^.*[\\/]/, '')])).toEqual([
      ['x.refused', 'x.reached', { scheme: 'http' }, 'a.yaml'],
      ['x.refused.https', 'x.reached.https', { scheme: 'https' }, 'a.yaml'],
      ['x.reached', null, { scheme: 'http' }, 'b.yaml'],
      ['x.reached.https', null, { scheme: 'https' }, 'b.yaml'],
    ]);
    const [plain, tls] = scenarios.slice(2);
    expect([plain!.operator.server_url, plain!.operator.allow_private_origin, plain!.server.knobs]).toEqual(['http://127.0.0.1:{port}/mcp', 'http://127.0.0.1:{port}', undefined]);
    expect([tls!.operator.server_url, tls!.operator.allow_private_origin, tls!.server.knobs]).toEqual(['https://127.0.0.1:{port}/mcp', 'https://127.0.0.1:{port}', { http_tls: 1 }]);
    expect(tls!.title).toBe('A server reached by its URL for the loader tests (over https)');
    // A filter selects cases by id: the file's own id is the http case alone.
    expect(scenarios.filter((s) => matchesGlob(s.id, 'x.refused*')).map((s) => s.id)).toEqual(['x.refused', 'x.refused.https']);
  });

  it('refuses an attack over https whose control has no https case', () => {
    const plainControl = reached.replace('variants: { scheme: [http, https] }\n', '').replaceAll('{scheme}', 'http');
    expect(() => load({ 'a.yaml': refused, 'b.yaml': plainControl })).toThrow(/a\.yaml: its control x\.reached\.https does not exist/);
  });

  it('refuses what no case could be: a placeholder without its axis, a URL the scheme does not begin, a server over stdio or already on TLS, an unknown axis or value', () => {
    const noAxis = reached.replace('variants: { scheme: [http, https] }\n', '');
    expect(() => load({ 'a.yaml': noAxis })).toThrow(/a\.yaml: server_url names \{scheme\}, and variants lists no scheme/);
    const fixedScheme = reached.replace('"{scheme}://127.0.0.1:{port}/mcp"', '"http://127.0.0.1:{port}/mcp"');
    expect(() => load({ 'a.yaml': fixedScheme })).toThrow(/a\.yaml: variants\.scheme needs each server_url to begin with \{scheme\}:\/\//);
    const stdio = reached.replace('transport: http', 'transport: stdio');
    expect(() => load({ 'a.yaml': stdio })).toThrow(/a\.yaml: variants\.scheme needs every server reached over http/);
    const tls = reached.replace('transport: http }', 'transport: http, knobs: { http_tls: 1 } }');
    expect(() => load({ 'a.yaml': tls })).toThrow(/a\.yaml: variants\.scheme sets http_tls itself/);
    expect(() => load({ 'a.yaml': reached.replace('scheme: [http, https]', 'revision: [a, b]') })).toThrow(/a\.yaml: does not match the scenario schema/);
    expect(() => load({ 'a.yaml': reached.replace('[http, https]', '[http, ftp]') })).toThrow(/a\.yaml: does not match the scenario schema/);
  });
});

describe('the revision axis', () => {
  const only = (text: string, revisions: string) => text.replace('claims: [pinning]\n', `claims: [pinning]\nrevisions: ${revisions}\n`);

  it('runs a file under every revision: the 2025-11-25 case keeps its id and servers, the 2026-07-28 case is suffixed, paired with its own control, its kit servers told to speak it', () => {
    const scenarios = load({ 'a.yaml': attack, 'b.yaml': control.replace('{ catalogue: notes }', '{ catalogue: notes, knobs: { filler: 3 } }') });
    expect(scenarios.map((s) => [s.id, s.control ?? null, s.revision, s.variant ?? null])).toEqual([
      ['x.attack', 'x.benign', '2025-11-25', null],
      ['x.attack.2026-07-28', 'x.benign.2026-07-28', '2026-07-28', null],
      ['x.benign', null, '2025-11-25', null],
      ['x.benign.2026-07-28', null, '2026-07-28', null],
    ]);
    const [base, stateless] = scenarios.slice(2);
    expect([base!.server.knobs, stateless!.server.knobs]).toEqual([{ filler: 3 }, { filler: 3, revisions: '2026-07-28' }]);
    expect([base!.title, stateless!.title]).toEqual(['A benign control for the loader tests', 'A benign control for the loader tests (MCP 2026-07-28)']);
  });

  it('runs a file that lists one revision under that one alone, and refuses an attack whose control lacks its revision', () => {
    expect(load({ 'b.yaml': only(control, '[2025-11-25]') }).map((s) => s.id)).toEqual(['x.benign']);
    expect(load({ 'b.yaml': only(control, '[2026-07-28]') }).map((s) => s.id)).toEqual(['x.benign.2026-07-28']);
    expect(() => load({ 'a.yaml': attack, 'b.yaml': only(control, '[2025-11-25]') })).toThrow(/a\.yaml: its control x\.benign\.2026-07-28 does not exist/);
  });

  it('refuses a file that sets the revisions knob itself, an unknown revision and an empty list', () => {
    expect(() => load({ 'b.yaml': control.replace('{ catalogue: notes }', "{ catalogue: notes, knobs: { revisions: '2026-07-28' } }") })).toThrow(/b\.yaml: server sets the revisions knob/);
    expect(() => load({ 'b.yaml': only(control, '[2024-11-05]') })).toThrow(/b\.yaml: does not match the scenario schema/);
    expect(() => load({ 'b.yaml': only(control, '[]') })).toThrow(/b\.yaml: does not match the scenario schema/);
  });
});

describe('the shipped catalogue', () => {
  const scenarios = loadCatalogue();

  it('loads, with at least 25 scenarios', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(25);
  });

  it('pairs every attack with a control', () => {
    const controls = new Set(scenarios.filter((s) => s.kind === 'control').map((s) => s.id));
    for (const attackScenario of scenarios.filter((s) => s.kind === 'attack')) {
      expect(controls.has(attackScenario.control ?? ''), attackScenario.id).toBe(true);
    }
  });

  it('gives every scenario an expectation that observes something', () => {
    for (const scenario of scenarios) {
      const observes = scenario.steps.some((step) => 'list' in step || 'call' in step || ('start' in step && step.start.expect.outcome !== 'ready') || 'http' in step || 'request' in step);
      expect(observes, scenario.id).toBe(true);
    }
  });

  it('never lets a candidate that dies at every start pass a refusal before the server is reached', () => {
    // Such a refusal shows no contact with the server, which a dead candidate shows too: the step
    // must name what the refusal says, or the scenario must then start the candidate ready.
    for (const scenario of scenarios) {
      scenario.steps.forEach((step, index) => {
        if (!('start' in step) || !step.start.expect.outcome.startsWith('refused-before-')) return;
        const laterReady = scenario.steps.slice(index + 1).some((later) => 'start' in later && later.start.expect.outcome === 'ready');
        expect(step.start.expect.reason_includes !== undefined || laterReady, `${scenario.id} step ${index + 1}`).toBe(true);
      });
    }
  });
});
