// The manifest round-trips what pin recorded, and refuses one that does not hold together.

import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { descriptionHash, sha256Hex } from '../../src/load/fingerprint.js';
import { readJson } from '../../src/json/reader.js';
import { writeJson } from '../../src/json/writer.js';
import { manifestText, parseManifest } from '../../src/operator/manifest.js';
import { tool } from './builders.js';

const when = new Date('2026-01-01T00:00:00.000Z');
const listed = [
  tool('search_notes', { schema: '{ "type":"object", "properties":{"n":{"maximum":9007199254740993}} }', annotations: '{"readOnlyHint":true}' }),
  tool('bare', { description: undefined }),
];

describe('manifest', () => {
  it('records the canonical schema, both hashes and the annotations as received', () => {
    const manifest = JSON.parse(manifestText({ id: 'notes', tools: listed, features: [] }, when));
    const canonical = '{"properties":{"n":{"maximum":9007199254740993}},"type":"object"}';
    expect(manifest).toEqual({
      format: 'gauntlet-pin/1',
      server: 'notes',
      pinned_at: '2026-01-01T00:00:00.000Z',
      tools: {
        search_notes: {
          description_hash: sha256Hex('search_notes does things'),
          schema_hash: sha256Hex(canonical),
          input_schema: canonical,
          annotations: { readOnlyHint: true },
        },
        bare: {
          description_hash: descriptionHash(undefined),
          schema_hash: sha256Hex('{"type":"object"}'),
          input_schema: '{"type":"object"}',
          annotations: null,
        },
      },
    });
  });

  it('hashes a missing description apart from every present one, the empty one included', () => {
    expect(descriptionHash(undefined)).not.toBe(descriptionHash(''));
    expect(descriptionHash('')).toBe(sha256Hex(''));
  });

  it('reads back what it wrote', () => {
    const parsed = parseManifest(readJson(manifestText({ id: 'notes', tools: listed, features: [] }, when)));
    const pin = parsed.tools.get('search_notes');
    expect(writeJson(pin?.inputSchema ?? readJson('{}'))).toBe('{"properties":{"n":{"maximum":9007199254740993}},"type":"object"}');
    expect(pin?.annotations === undefined ? undefined : writeJson(pin.annotations)).toBe('{"readOnlyHint":true}');
    expect(parsed.tools.get('bare')?.annotations).toBeUndefined();
  });

  it.each([
    [(m: any) => ({ ...m, format: 'gauntlet-pin/2' }), 'manifest.format must be "gauntlet-pin/1"'],
    [(m: any) => ({ ...m, extra: 1 }), 'unknown field "extra"'],
    [(m: any) => ({ ...m, tools: { t: { ...m.tools.bare, schema_hash: 'A'.repeat(64) } } }), 'lowercase SHA-256'],
    [(m: any) => ({ ...m, tools: { t: { ...m.tools.bare, input_schema: '{ "type":"object"}' } } }), 'not in canonical form'],
    [(m: any) => ({ ...m, tools: { t: { ...m.tools.bare, input_schema: '{"type":"array"}' } } }), 'does not match input_schema'],
    [(m: any) => ({ ...m, tools: { t: { ...m.tools.bare, input_schema: '[]' } } }), 'must be a JSON object'],
    [(m: any) => ({ ...m, tools: { t: { ...m.tools.bare, annotations: [] } } }), 'must be an object or null'],
    [(m: any) => ({ ...m, tools: { t: { ...m.tools.bare, annotations: undefined } } }), 'must be an object or null'],
  ])('refuses a manifest that does not hold together (%#)', (edit, message) => {
    const text = JSON.stringify(edit(JSON.parse(manifestText({ id: 'notes', tools: listed, features: [] }, when))));
    expect(() => parseManifest(readJson(text))).toThrow(ConfigError);
    expect(() => parseManifest(readJson(text))).toThrow(message);
  });
});
