// Load's decision across tools, what the agent is shown, and the load report.

import { describe, expect, it } from 'vitest';
import { selectGuards } from '../../src/guards/registry.js';
import { writeJson } from '../../src/json/writer.js';
import { decideTools } from '../../src/load.js';
import type { Manifest } from '../../src/manifest.js';
import { reportText } from '../../src/report.js';
import { config, json, pinOf, rule, tool } from './builders.js';
import type { ListedTool } from '../../src/listing.js';
import type { Rule } from '../../src/config.js';

const manifestOf = (tools: ListedTool[]): Manifest => ({ server: 'notes', tools: new Map(tools.map((t) => [t.name, pinOf(t)])) });

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
      { tool: 'dropped', guard: 'still-offered', reason: 'the server no longer offers it' },
    ]);
    expect(outcome.unpinned).toEqual(['extra']);
    expect(outcome.unclassified).toEqual(['unruled']);
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
    expect(unruled).toMatchObject({ refused: [], unclassified: ['t'], unpinned: [] });
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
      unpinned: [],
      unclassified: ['evil\\u{202e}\\u{a}{"tool":"x"}\\\\'],
    });
  });
});
