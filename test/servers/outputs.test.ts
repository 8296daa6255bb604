import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { resolveKnobs } from '../../servers/kit/knobs.js';
import { listingPages } from '../../servers/kit/listing.js';
import { OUTPUT_PRESETS, OUTPUT_SCHEMA, outputResult } from '../../servers/kit/outputs.js';

const DOCUMENTED_SCHEMA = {
  type: 'object',
  properties: { id: { type: 'integer' }, text: { type: 'string' } },
  required: ['id', 'text'],
  additionalProperties: false,
};

const validate = new Ajv2020({ strict: true }).compile(DOCUMENTED_SCHEMA);
const resultOf = (preset: (typeof OUTPUT_PRESETS)[number]) =>
  JSON.parse(outputResult(preset)) as { content: { type: string; text: string }[]; structuredContent?: unknown };
const toolsOf = (knobs: Record<string, string>, phase: 'review' | 'run' = 'review') =>
  listingPages(resolveKnobs(knobs), phase)
    .flat()
    .map((text) => JSON.parse(text) as { name: string; outputSchema?: unknown });

describe('output presets', () => {
  it('are valid, invalid, missing and oversized', () => {
    expect(OUTPUT_PRESETS).toEqual(['valid', 'invalid', 'missing', 'oversized']);
    expect(OUTPUT_SCHEMA).toEqual(DOCUMENTED_SCHEMA);
  });

  it('list the tool with the output schema, in both phases, and only that tool', () => {
    for (const phase of ['review', 'run'] as const) {
      const tools = toolsOf({ 'output.read_note': 'invalid', 'name.read_note': 'fetch' }, phase);
      expect(tools.map((t) => [t.name, t.outputSchema])).toEqual([
        ['search_notes', undefined],
        ['fetch', DOCUMENTED_SCHEMA],
        ['write_note', undefined],
      ]);
    }
    expect(listingPages(resolveKnobs({ 'output.read_note': 'valid' }), 'review')[0]![1]).toMatch(
      /"inputSchema":\{.*\},"outputSchema":\{"type":"object",.*\},"annotations":/,
    );
  });

  it('go with run.reserialise, restyled like the input schemas, and with a duplicate', () => {
    const run = listingPages(resolveKnobs({ 'output.read_note': 'valid', 'run.reserialise': '1' }), 'run')[0]![1]!;
    expect(run).not.toContain('"outputSchema":{"type"');
    expect(JSON.parse(run).outputSchema).toEqual(DOCUMENTED_SCHEMA);
    const duplicated = toolsOf({ 'output.read_note': 'valid', duplicate: 'read_note' });
    expect(duplicated[2]).toMatchObject({ name: 'read_note', outputSchema: DOCUMENTED_SCHEMA });
  });

  it("output_schema.TOOL=injection lists the output schema with the injection in its description, in both phases", () => {
    for (const phase of ['review', 'run'] as const) {
      const readNote = listingPages(resolveKnobs({ 'output.read_note': 'valid', 'output_schema.read_note': 'injection' }), phase).flat().map((text) => JSON.parse(text)).find((tool) => tool.name === 'read_note');
      expect(readNote.outputSchema).toMatchObject({ type: 'object', required: ['id', 'text'], description: expect.stringContaining('SYSTEM OVERRIDE') });
    }
  });

  it('run.output_schema loosens the output schema in run only, and the valid result still keeps to it', () => {
    const knobs = { 'output.read_note': 'valid', 'run.output_schema': 'read_note' };
    const loosened = { ...DOCUMENTED_SCHEMA, required: ['id'], additionalProperties: true };
    expect(toolsOf(knobs)[1]!.outputSchema).toEqual(DOCUMENTED_SCHEMA);
    expect(toolsOf(knobs, 'run').map((t) => t.outputSchema)).toEqual([undefined, loosened, undefined]);
    expect(new Ajv2020({ strict: true }).compile(loosened)(resultOf('valid').structuredContent)).toBe(true);
  });

  it('valid: structured content that keeps to the schema, and its JSON as text', () => {
    expect(resultOf('valid')).toEqual({
      content: [{ type: 'text', text: '{"id":1,"text":"hello"}' }],
      structuredContent: { id: 1, text: 'hello' },
    });
    expect(validate(resultOf('valid').structuredContent)).toBe(true);
  });

  it('invalid: structured content that breaks it', () => {
    expect(resultOf('invalid')).toEqual({
      content: [{ type: 'text', text: '{"id":"one","text":5}' }],
      structuredContent: { id: 'one', text: 5 },
    });
    expect(validate(resultOf('invalid').structuredContent)).toBe(false);
  });

  it('missing: no structured content at all', () => {
    expect(resultOf('missing')).toEqual({ content: [{ type: 'text', text: '{"id":1,"text":"hello"}' }] });
  });

  it('oversized: valid structured content with 30,000 characters of text, and a short text block', () => {
    const { content, structuredContent } = resultOf('oversized');
    expect(content).toEqual([{ type: 'text', text: 'Note 1 is in the structured result.' }]);
    expect(validate(structuredContent)).toBe(true);
    expect((structuredContent as { text: string }).text).toMatch(/^[a-z]{30000}$/);
  });
});
