// Load's decision across tools, what the agent is shown, and the load report.

import { describe, expect, it } from 'vitest';
import { selectGuards } from '../../src/guards/registry.js';
import { writeJson } from '../../src/json/writer.js';
import { decideTools, type LoadOutcome } from '../../src/load/load.js';
import { reportText } from '../../src/load/report.js';
import { config, json, manifestOf, rule, tool } from './builders.js';
import type { ListedTool, Rule } from '../../src/types.js';

const apart = (outcome: LoadOutcome, guard: string) => outcome.refused.filter((r) => r.guard === guard).map((r) => r.tool);

const search = tool('search_notes', { annotations: '{"readOnlyHint":true}' });
const write = tool('write_note', { annotations: '{"destructiveHint":true}' });
const read = tool('read_note');
const rules = {
  search_notes: rule('read_only'),
  write_note: rule('local_change', { description: 'Operator text', allowHintMismatch: true, callTimeoutMs: 50 }),
  read_note: rule('read_only'),
};

describe('decideTools', () => {
  it('registers what passes, refuses the rest, and reports unpinned and unclassified apart', () => {
    const extra = tool('extra');
    const unruled = tool('unruled');
    const reworded = { ...read, description: 'now do something else' };
    const outcome = decideTools(
      [search, write, reworded, extra, unruled],
      manifestOf([search, write, read, unruled, tool('dropped')]),
      config({ ...rules, extra: rule('read_only'), dropped: rule('read_only') }),
      selectGuards([]),
    );
    expect(outcome.registered.map((t) => t.name)).toEqual(['search_notes', 'write_note']);
    expect(outcome.refused).toEqual([
      { tool: 'read_note', guard: 'description-pin', reason: 'the description changed since the pin, and a description is model input' },
      { tool: 'extra', guard: 'pinned', reason: 'the manifest does not pin it' },
      { tool: 'unruled', guard: 'classified', reason: 'the operator has no rule for it' },
      { tool: 'dropped', guard: 'still-offered', reason: 'the server no longer offers it' },
    ]);
    expect(apart(outcome, 'pinned')).toEqual(['extra']);
    expect(apart(outcome, 'classified')).toEqual(['unruled']);
    expect(outcome.registered[1]?.hintMismatchOverridden).toMatch(/local_change.*destructiveHint: true/);
    expect(outcome.registered[1]?.callTimeoutMs).toBe(50);
    expect(outcome.registered[0]?.callTimeoutMs).toBe(10000);
  });

  it('refuses by the first guard in order: still-offered, classified, pinned, schema-pin, description-pin, hint-consistency', () => {
    const changed = tool('t', { description: 'other', schema: '{"type":"object","x":1}', annotations: '{}' });
    const original = tool('t');
    const guardFor = (disabled: string[]) => {
      const outcome = decideTools([changed], manifestOf([original]), config({ t: rule('read_only') }), selectGuards(disabled));
      return outcome.refused[0]?.guard ?? (outcome.registered.length === 1 ? 'registered' : 'other');
    };
    expect(guardFor([])).toBe('schema-pin');
    expect(guardFor(['schema-pin'])).toBe('description-pin');
    expect(guardFor(['schema-pin', 'description-pin'])).toBe('hint-consistency');
    expect(guardFor(['schema-pin', 'description-pin', 'hint-consistency'])).toBe('registered');
    // A pinned tool with no rule is only unclassified.
    const unruled = decideTools([changed], manifestOf([original]), config({}), selectGuards([]));
    expect(unruled.refused).toEqual([{ tool: 't', guard: 'classified', reason: 'the operator has no rule for it' }]);
  });

  it('shows the operator description, the raw schema and annotations derived from the effect', () => {
    const schema = '{"type":"object","properties":{"n":{"maximum":9007199254740993,"minimum":1.0}}}';
    const listed = tool('write_note', { schema, annotations: '{"destructiveHint":true,"title":"x"}' });
    const [registered] = decideTools([listed], manifestOf([listed]), config(rules), selectGuards([])).registered;
    expect(registered?.shown.description).toBe('Operator text');
    expect(writeJson(registered?.shown.inputSchema ?? json('{}'))).toBe(schema);
    expect(writeJson(registered?.shown.annotations ?? json('{}'))).toBe('{"readOnlyHint":false,"destructiveHint":false,"openWorldHint":false}');
  });

  it('with a guard disabled, behaves as if that protection did not exist', () => {
    const listed = tool('write_note', { annotations: '{"destructiveHint":true}' });
    const outcome = (disabled: string[], tools = [listed], manifest = manifestOf([listed]), r: Record<string, Rule> = rules) =>
      decideTools(tools, manifest, config(r), selectGuards(disabled));

    const raw = outcome(['operator-annotations', 'operator-description']).registered[0]?.shown;
    expect(raw?.description).toBe('write_note does things');
    expect(writeJson(raw?.annotations ?? json('{}'))).toBe('{"destructiveHint":true}');

    const unclassified = outcome(['classified'], [listed], manifestOf([listed]), {}).registered[0];
    expect(unclassified?.effect).toBeUndefined();
    expect(unclassified?.shown.annotations).toBeUndefined();

    const unpinned = outcome(['pinned'], [listed], manifestOf([])).registered;
    expect(unpinned.map((t) => t.name)).toEqual(['write_note']);

    // A dropped tool is then shown as pinned, with what the pin kept.
    const dropped = outcome(['still-offered'], [], manifestOf([listed])).registered[0];
    expect(dropped?.name).toBe('write_note');
    expect(dropped?.shown.description).toBe('Operator text');
    expect(writeJson(dropped?.shown.inputSchema ?? json('{}'))).toBe('{"type":"object"}');
  });
});

describe('decideTools: names, hidden parameters and schemas', () => {
  const decide = (tools: ListedTool[], r: Record<string, Rule>, disabled: string[] = [], prefix?: string) =>
    decideTools(tools, manifestOf(tools), config(r, { prefix }), selectGuards(disabled));

  it('offers renamed and prefixed names, and forwards under the server name', () => {
    const outcome = decide([tool('write_note'), tool('read_note')], { write_note: rule('local_change', { rename: 'save_note' }), read_note: rule('read_only') }, [], 'nt');
    expect(outcome.registered.map((t) => [t.tool, t.name])).toEqual([
      ['write_note', 'save_note'],
      ['read_note', 'nt_read_note'],
    ]);
    expect(JSON.parse(reportText('notes', outcome)).registered.map((r: { tool: string; name: string }) => [r.tool, r.name])).toEqual([
      ['write_note', 'save_note'],
      ['read_note', 'nt_read_note'],
    ]);
  });

  it('refuses a colliding name: the first keeps it, the second neither replaces nor shadows it', () => {
    const outcome = decide([tool('a'), tool('b')], { a: rule('read_only'), b: rule('read_only', { rename: 'a' }) });
    expect(outcome.registered.map((t) => t.tool)).toEqual(['a']);
    expect(outcome.refused).toEqual([{ tool: 'b', guard: 'name-unique', reason: 'its offered name "a" is already taken by another tool' }]);
    // Without name-unique both register under one name, as a naive broker would.
    expect(decide([tool('a'), tool('b')], { a: rule('read_only'), b: rule('read_only', { rename: 'a' }) }, ['name-unique']).registered.map((t) => t.name)).toEqual(['a', 'a']);
  });

  it('a tool refused for its name does not take the name', () => {
    const outcome = decide([tool('x', { schema: '{"type":"string"}' }), tool('b')], { x: rule('read_only', { rename: 'b' }), b: rule('read_only') });
    expect(outcome.registered.map((t) => t.name)).toEqual(['b']);
    expect(outcome.refused.map((r) => r.guard)).toEqual(['object-schema']);
  });

  it('refuses a bad offered name, and offers it with name-rules disabled', () => {
    const r = { t: rule('read_only', { rename: 'save note' }) };
    expect(decide([tool('t')], r).refused.map((x) => x.guard)).toEqual(['name-rules']);
    expect(decide([tool('t')], r, ['name-rules']).registered.map((x) => x.name)).toEqual(['save note']);
  });

  it('shows the schema without hidden parameters and compiles the validator from it', () => {
    const schema = '{"type":"object","properties":{"text":{},"sidenote":{},"folder":{}},"required":["text","sidenote"],"additionalProperties":false}';
    const [registered] = decide([tool('w', { schema })], { w: rule('local_change', { deny: ['sidenote'], fixed: [['folder', json('{}')]] }) }).registered;
    expect(writeJson(registered?.shown.inputSchema ?? json('{}'))).toBe('{"type":"object","properties":{"text":{}},"required":["text"],"additionalProperties":false}');
    expect(registered?.validator?.(json('{"text":1}'))).toEqual([]);
    expect(registered?.validator?.(json('{"text":1,"folder":1}'))).toEqual(['/ must NOT have additional properties']);
  });

  it('runs the schema guards in order, and with one disabled behaves as if it did not exist', () => {
    const external = tool('e', { schema: '{"type":"object","properties":{"a":{"$ref":"http://127.0.0.1:9/a.json"}}}' });
    expect(decide([external], { e: rule('read_only') }).refused.map((r) => r.guard)).toEqual(['self-contained']);
    // Registered without fetching: the outside document stands in as the empty schema.
    const [unchecked] = decide([external], { e: rule('read_only') }, ['self-contained']).registered;
    expect(unchecked?.validator?.(json('{"a":"anything"}'))).toEqual([]);

    const unsound = tool('u', { schema: '{"type":"object","properties":{"s":{}},"allOf":[{"required":["s"]}]}' });
    expect(decide([unsound], { u: rule('read_only', { deny: ['s'] }) }).refused.map((r) => r.guard)).toEqual(['hidden-names-sound']);
    expect(decide([unsound], { u: rule('read_only', { deny: ['s'] }) }, ['hidden-names-sound']).registered).toHaveLength(1);

    const broken = tool('b', { schema: '{"type":"object","minimum":"x"}' });
    expect(decide([broken], { b: rule('read_only') }).refused.map((r) => r.guard)).toEqual(['schema-compiles']);
    const [uncompiled] = decide([broken], { b: rule('read_only') }, ['schema-compiles']).registered;
    expect(uncompiled?.validator).toBeUndefined();

    const notObject = tool('n', { schema: '{"type":"array"}' });
    expect(decide([notObject], { n: rule('read_only') }).refused.map((r) => r.guard)).toEqual(['object-schema']);
    expect(decide([notObject], { n: rule('read_only') }, ['object-schema']).registered).toHaveLength(1);
  });
});

describe('decideTools: the output schema a result is checked against', () => {
  const withOutput = (schema: string): ListedTool => ({ ...tool('t'), outputSchema: json(schema) });
  const validatorOf = (listed: ListedTool, pinned: ListedTool = listed) => {
    const [registered] = decideTools([listed], manifestOf([pinned]), config({ t: rule('read_only') }), selectGuards(['output-schema-pin'])).registered;
    return registered!.outputValidator;
  };

  it('checks results against the output schema the pin recorded, not the one listed now', () => {
    const validate = validatorOf(withOutput('{"type":"object","required":["live"]}'), withOutput('{"type":"object","required":["pinned"]}'))!;
    expect(validate(json('{"pinned":1}'))).toEqual([]);
    expect(validate(json('{"live":1}'))).toEqual(["/ must have required property 'pinned'"]);
  });

  it('has no output validator for a tool without an output schema', () => {
    expect(validatorOf(tool('t'))).toBeUndefined();
  });

  it('finds every result invalid when the output schema refers outside itself or does not compile', () => {
    expect(validatorOf(withOutput('{"type":"object","properties":{"a":{"$ref":"https://elsewhere.example/s.json"}}}'))!(json('{}'))).toEqual([
      'the output schema is not self-contained: $ref "https://elsewhere.example/s.json" points outside the schema at /properties/a/$ref',
    ]);
    const broken = validatorOf(withOutput('{"type":"object","required":"a"}'))!(json('{}'));
    expect(broken).toHaveLength(1);
    expect(broken[0]).toMatch(/^the output schema does not compile: not a valid 2020-12 schema: /);
  });

  it('finds every result invalid when a reference of the output schema lands on no schema of it', () => {
    const keywordValue = '{"type":"object","properties":{"a":{"$ref":"#/$defs/d/type"}},"$defs":{"d":{"type":"string"}}}';
    expect(validatorOf(withOutput(keywordValue))!(json('{"a":"x"}'))).toEqual([
      'the output schema has a reference that lands on no schema: $ref "#/$defs/d/type" at /properties/a names a string that is not a schema',
    ]);
  });
});

describe('reportText', () => {
  it('writes the documented fields and escapes what the server chose', () => {
    const sneaky = tool('evil\u202e\n{"tool":"x"}\\');
    const listed = tool('write_note', { annotations: '{"destructiveHint":true}' });
    const outcome = decideTools([listed, sneaky], manifestOf([listed]), config(rules), selectGuards([]));
    const report = JSON.parse(reportText('notes', outcome));
    expect(report).toEqual({
      format: 'gauntlet-load/1',
      server: 'notes',
      registered: [
        {
          tool: 'write_note',
          name: 'write_note',
          effect: 'local_change',
          hint_mismatch_overridden:
            'the operator classified it local_change, but the pinned annotations say destructiveHint: true, and the annotations the server sends now say destructiveHint: true',
        },
      ],
      refused: [],
      // Neither pinned nor ruled: the review never saw it, which is what the report says first.
      unpinned: ['evil\\u{202e}\\u{a}{"tool":"x"}\\\\'],
      unclassified: [],
    });
  });
});
