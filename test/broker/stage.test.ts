// The outbound stage's decisions, one example each: what is normalised and what only judged, the
// whole-message bound, the steps its guards configure, and failing closed.

import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/operator/config.js';
import { ALL_GUARDS, selectGuards } from '../../src/guards/registry.js';
import { configureStage, inspectOutbound, type Channel } from '../../src/inspect/stage.js';
import { readJson } from '../../src/json/reader.js';
import { writeJson } from '../../src/json/writer.js';
import type { JsonValue } from '../../src/types.js';

const STAGE = configureStage(ALL_GUARDS.outbound, { serverEnv: new Map([['TOKEN', 'tok-0123456789']]), limits: DEFAULT_LIMITS });

function through(text: string, channel: Channel, stage = STAGE): unknown {
  const outbound = inspectOutbound(readJson(text), channel, stage);
  return outbound.ok ? JSON.parse(writeJson(outbound.message)) : { withheld: outbound.problem };
}

describe('the outbound stage', () => {
  it("normalises a schema's prose, and withholds a descriptor whose schema value that decides validity hides a character", () => {
    const prose = '{"name":"t","inputSchema":{"type":"object","description":"A\\u200Bb","properties":{"q":{"title":"Q\\u2064","type":"string"}}}}';
    expect(through(prose, 'descriptor')).toEqual({ name: 't', inputSchema: { type: 'object', description: 'Ab', properties: { q: { title: 'Q', type: 'string' } } } });
    for (const value of ['"enum":["a\\u2064b"]', '"pattern":"^a\\u200Bb$"', '"default":"a\\u180Eb"', '"const":{"description":"a\\u200Bb"}']) {
      expect(through(`{"name":"t","inputSchema":{"type":"object","properties":{"q":{${value}}}}}`, 'descriptor')).toEqual({
        withheld: expect.stringContaining('invisible or formatting characters where text cannot be rewritten'),
      });
    }
  });

  it("tells a schema's prose from its values inside arrays of subschemas, and reads a prose keyword holding no string, or a value holding a schema-like object, as a value", () => {
    const descriptor = (schema: string) => `{"name":"t","inputSchema":{"type":"object",${schema}}}`;
    expect(through(descriptor('"allOf":[{"description":"a\\u200Bb"}]'), 'descriptor')).toEqual({ name: 't', inputSchema: { type: 'object', allOf: [{ description: 'ab' }] } });
    for (const schema of ['"description":{"x":"a\\u200Bb"}', '"default":{"x":{"description":"a\\u200Bb"}}']) {
      expect(through(descriptor(schema), 'descriptor')).toEqual({ withheld: 'it carries invisible or formatting characters where text cannot be rewritten' });
    }
  });

  it('only judges an identifier (a uri, a name), at any depth and in arrays, and normalises what is not one', () => {
    const hidden = { withheld: 'it carries invisible or formatting characters where text cannot be rewritten' };
    expect(through('{"contents":[{"uri":"file:///a\\u200Bb","text":"x"}]}', 'resource')).toEqual(hidden);
    expect(through('[{"uri":"file:///a\\u200Bb"}]', 'resource')).toEqual(hidden);
    expect(through('{"contents":[{"uri":"file:///ab","text":"a\\u200Bb"}]}', 'resource')).toEqual({ contents: [{ uri: 'file:///ab', text: 'ab' }] });
    // A "name" that holds no string names nothing: its strings are text like any other.
    expect(through('{"contents":[{"name":{"x":"a\\u200Bb"},"text":"x"}]}', 'resource')).toEqual({ contents: [{ name: { x: 'ab' }, text: 'x' }] });
  });

  it("caps a descriptor's description at max_description_chars, and leaves one at the cap whole", () => {
    const descriptor = (length: number) => JSON.stringify({ name: 't', description: 'd'.repeat(length), inputSchema: { type: 'object' } });
    const cap = DEFAULT_LIMITS.maxDescriptionChars;
    // The marker counts toward the cap: what is shown is the cap's worth, marker included.
    const marker = `[truncated: showing ${cap} of ${cap + 5} characters]`;
    expect(through(descriptor(cap + 5), 'descriptor')).toEqual({
      name: 't',
      description: `${'d'.repeat(cap - marker.length)}${marker}`,
      inputSchema: { type: 'object' },
    });
    expect(through(descriptor(cap), 'descriptor')).toEqual(JSON.parse(descriptor(cap)));
  });

  it('withholds a message whose key hides a character, on every channel, and normalises its values', () => {
    expect(through('{"content":[],"structuredContent":{"no\\u200Bte":1}}', 'result')).toMatchObject({ withheld: expect.any(String) });
    expect(through('{"content":[],"structuredContent":{"note":"a\\u200Bb"}}', 'result')).toEqual({ content: [], structuredContent: { note: 'ab' } });
  });

  it('inspects an error whole: a finding in its data withholds it, and its message is escaped after normalisation', () => {
    expect(through('{"code":-32000,"message":"x","data":{"d":["GAUNTLET-CANARY-0123456789abcdef"]}}', 'error')).toMatchObject({ withheld: expect.stringContaining('canary') });
    expect(through('{"code":-32000,"message":"a\\nb\\u202E c","data":{"d":"tok-0123456789"}}', 'error')).toEqual({
      code: -32000,
      message: 'a\\u{a}b c',
      data: { d: '[redacted: TOKEN]' },
    });
  });

  it('bounds the whole message: many small fields together past a bound are withheld', () => {
    const fields = (n: number) => JSON.stringify({ content: [], _meta: Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'x'.repeat(40)])) });
    expect(through(fields(1_000), 'result')).not.toHaveProperty('withheld');
    expect(through(fields(2_000), 'result')).toMatchObject({ withheld: expect.stringContaining('inspection bound') });
  });

  it('applies only the steps of the guards kept', () => {
    const unguarded = configureStage(selectGuards(['inspect-results', 'redact-server-env', 'server-error-escaped']).outbound, {
      serverEnv: new Map([['TOKEN', 'tok-0123456789']]),
      limits: DEFAULT_LIMITS,
    });
    const error = '{"code":-32000,"message":"a\\nGAUNTLET-CANARY-0123456789abcdef tok-0123456789"}';
    expect(through(error, 'error', unguarded)).toEqual(JSON.parse(error));
  });

  it('fails closed on a message it cannot get through', () => {
    // Past the walk's stack with inspection off: the JSON reader would never build it, and the
    // bounds would refuse it before any walk; the stage still withholds rather than throws.
    let deep: JsonValue = { kind: 'string', value: 'tok-0123456789' };
    for (let i = 0; i < 200_000; i++) deep = { kind: 'array', items: [deep] };
    const uninspected = configureStage(selectGuards(['inspect-results']).outbound, { serverEnv: new Map([['TOKEN', 'tok-0123456789']]), limits: DEFAULT_LIMITS });
    expect(inspectOutbound(deep, 'notification', uninspected)).toEqual({ ok: false, problem: 'it could not be inspected' });
    expect(inspectOutbound(deep, 'notification', STAGE)).toMatchObject({ ok: false, problem: expect.stringContaining('inspection bound') });
  });
});
