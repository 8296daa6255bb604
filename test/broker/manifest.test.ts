// The manifest round-trips what pin recorded, and refuses one that does not hold together.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../temp-dirs.js';
import { ConfigError } from '../../src/errors.js';
import { descriptionHash, sha256Hex } from '../../src/load/fingerprint.js';
import { readJson } from '../../src/json/reader.js';
import { writeJson } from '../../src/json/writer.js';
import { loadManifests, manifestText, manifestsText, parseManifest } from '../../src/operator/manifest.js';
import { selectGuards } from '../../src/guards/registry.js';
import { descriptorHash } from '../../src/features/pins.js';
import type { Descriptor, JsonArray, JsonObject, Manifest } from '../../src/types.js';
import { NO_CAPABILITIES } from '../../src/operator/client-capabilities.js';
import { tool } from './builders.js';

const when = new Date('2026-01-01T00:00:00.000Z');
const listed = [
  tool('search_notes', { schema: '{ "type":"object", "properties":{"n":{"maximum":9007199254740993}} }', annotations: '{"readOnlyHint":true}' }),
  tool('bare', { description: undefined }),
];

describe('manifest', () => {
  it('records the canonical schema, both hashes and the annotations as received', () => {
    const manifest = JSON.parse(manifestText({ id: 'notes', tools: listed, features: [], capabilities: NO_CAPABILITIES }, when));
    const canonical = '{"properties":{"n":{"maximum":9007199254740993}},"type":"object"}';
    expect(manifest).toEqual({
      format: 'gauntlet-pin/1',
      server: 'notes',
      pinned_at: '2026-01-01T00:00:00.000Z',
      client_capabilities: {},
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

  it('reads back the output schema it pinned, canonical, for results to be checked against', () => {
    const typed = { ...tool('count_notes'), outputSchema: readJson('{ "type":"object", "properties":{"count":{"type":"integer"}} }') as JsonObject };
    const text = manifestText({ id: 'notes', tools: [typed], features: [], capabilities: NO_CAPABILITIES }, when);
    expect(JSON.parse(text).tools.count_notes.output_schema).toBe('{"properties":{"count":{"type":"integer"}},"type":"object"}');
    const pinned = parseManifest(readJson(text)).tools.get('count_notes');
    expect(pinned?.outputSchema === undefined ? undefined : writeJson(pinned.outputSchema)).toBe('{"properties":{"count":{"type":"integer"}},"type":"object"}');
  });

  it('records the client capabilities the server was pinned under, and reads them back', () => {
    const capabilities = { sampling: true, samplingTools: false, elicitationForm: true, elicitationUrl: true, roots: true };
    const text = manifestText({ id: 'notes', tools: listed, features: [], capabilities }, when);
    expect(JSON.parse(text).client_capabilities).toEqual({ roots: {}, sampling: {}, elicitation: { form: {}, url: {} } });
    expect(parseManifest(readJson(text)).capabilities).toEqual(capabilities);
  });

  it('reads a manifest from before capabilities were recorded as pinned under none, and refuses a malformed record', () => {
    const value = JSON.parse(manifestText({ id: 'notes', tools: listed, features: [], capabilities: NO_CAPABILITIES }, when));
    delete value.client_capabilities;
    expect(parseManifest(readJson(JSON.stringify(value))).capabilities).toEqual(NO_CAPABILITIES);
    expect(() => parseManifest(readJson(JSON.stringify({ ...value, client_capabilities: ['sampling'] })))).toThrow(/client_capabilities.*must be an object/);
  });

  it("records a tool's title as a hash and its execution as read, and reads both back", () => {
    const titled = { ...tool('t'), title: 'Search notes', execution: readJson('{"taskSupport":"optional"}') as JsonObject };
    const text = manifestText({ id: 'notes', tools: [titled], features: [], capabilities: NO_CAPABILITIES }, when);
    expect(JSON.parse(text).tools.t).toMatchObject({ title_hash: sha256Hex('Search notes'), execution: { taskSupport: 'optional' } });
    const pin = parseManifest(readJson(text)).tools.get('t');
    expect(pin?.titleHash).toBe(sha256Hex('Search notes'));
    expect(writeJson(pin?.execution ?? readJson('null'))).toBe('{"taskSupport":"optional"}');
    const bare = parseManifest(readJson(manifestText({ id: 'notes', tools: listed, features: [], capabilities: NO_CAPABILITIES }, when))).tools.get('bare');
    expect([bare?.titleHash, bare?.execution]).toEqual([undefined, undefined]);
  });

  it("records a tool's icons as listed, and reads them back; none when it listed none", () => {
    const icons = '[{"src":"data:image/png;base64,AAAA","mimeType":"image/png","x":1}]';
    const iconed = { ...tool('t'), icons: readJson(icons) as JsonArray };
    const text = manifestText({ id: 'notes', tools: [iconed], features: [], capabilities: NO_CAPABILITIES }, when);
    expect(JSON.parse(text).tools.t.icons).toEqual(JSON.parse(icons));
    expect(writeJson(parseManifest(readJson(text)).tools.get('t')!.icons!)).toBe(icons);
    const bare = parseManifest(readJson(manifestText({ id: 'notes', tools: listed, features: [], capabilities: NO_CAPABILITIES }, when))).tools.get('bare');
    expect(bare?.icons).toBeUndefined();
  });

  it("records the server's instructions as a hash, and reads it back; none when it gave none", () => {
    const text = manifestText({ id: 'notes', tools: listed, instructions: 'Search first.', features: [], capabilities: NO_CAPABILITIES }, when);
    expect(JSON.parse(text).instructions_hash).toBe(sha256Hex('Search first.'));
    expect(parseManifest(readJson(text)).instructionsHash).toBe(sha256Hex('Search first.'));
    expect(parseManifest(readJson(manifestText({ id: 'notes', tools: listed, features: [], capabilities: NO_CAPABILITIES }, when))).instructionsHash).toBeUndefined();
    expect(() => parseManifest(readJson(text.replace(sha256Hex('Search first.'), 'x')))).toThrow('manifest.instructions_hash must be a lowercase SHA-256');
  });

  it('hashes a missing description apart from every present one, the empty one included', () => {
    expect(descriptionHash(undefined)).not.toBe(descriptionHash(''));
    expect(descriptionHash('')).toBe(sha256Hex(''));
  });

  it('reads back what it wrote', () => {
    const parsed = parseManifest(readJson(manifestText({ id: 'notes', tools: listed, features: [], capabilities: NO_CAPABILITIES }, when)));
    const pin = parsed.tools.get('search_notes');
    expect(writeJson(pin?.inputSchema ?? readJson('{}'))).toBe('{"properties":{"n":{"maximum":9007199254740993}},"type":"object"}');
    expect(pin?.annotations === undefined ? undefined : writeJson(pin.annotations)).toBe('{"readOnlyHint":true}');
    expect(parsed.tools.get('bare')?.annotations).toBeUndefined();
  });

  it('reads each distinct schema text once, and still checks each tool against it', () => {
    const shared = [tool('a', { schema: '{"type":"object","properties":{}}' }), tool('b', { schema: '{"properties":{},"type":"object"}' }), tool('c')];
    const text = manifestText({ id: 'notes', tools: shared, features: [], capabilities: NO_CAPABILITIES }, when);
    const parsed = parseManifest(readJson(text));
    // a and b have one canonical text: one schema read back, shared; c's own.
    expect(parsed.tools.get('a')!.inputSchema).toBe(parsed.tools.get('b')!.inputSchema);
    expect(parsed.tools.get('c')!.inputSchema).not.toBe(parsed.tools.get('a')!.inputSchema);
    expect(writeJson(parsed.tools.get('b')!.inputSchema)).toBe('{"properties":{},"type":"object"}');
    // A later tool with a text already read is held to its own hash all the same.
    const manifest = JSON.parse(text);
    manifest.tools.b.schema_hash = manifest.tools.c.schema_hash;
    expect(() => parseManifest(readJson(JSON.stringify(manifest)))).toThrow('manifest.tools["b"].schema_hash does not match input_schema');
  });

  it.each([
    [(m: any) => ({ ...m, format: 'gauntlet-pin/2' }), 'manifest.format must be "gauntlet-pin/1"'],
    [(m: any) => ({ ...m, extra: 1 }), 'unknown field "extra"'],
    [(m: any) => ({ ...m, tools: { t: { ...m.tools.bare, schema_hash: 'A'.repeat(64) } } }), 'lowercase SHA-256'],
    [(m: any) => ({ ...m, tools: { t: { ...m.tools.bare, input_schema: '{ "type":"object"}' } } }), 'not in canonical form'],
    [(m: any) => ({ ...m, tools: { t: { ...m.tools.bare, input_schema: '{"type":"array"}' } } }), 'does not match input_schema'],
    [(m: any) => ({ ...m, tools: { t: { ...m.tools.bare, input_schema: '[]' } } }), 'must be a JSON object'],
    [(m: any) => ({ ...m, tools: { t: { ...m.tools.bare, annotations: [] } } }), 'must be an object or null'],
    [(m: any) => ({ ...m, tools: { t: { ...m.tools.bare, title_hash: 'x' } } }), 'manifest.tools["t"].title_hash must be a lowercase SHA-256'],
    [(m: any) => ({ ...m, tools: { t: { ...m.tools.bare, execution: 'optional' } } }), 'manifest.tools["t"].execution must be an object'],
    [(m: any) => ({ ...m, tools: { t: { ...m.tools.bare, icons: { src: 'data:' } } } }), 'manifest.tools["t"].icons must be an array'],
    [(m: any) => ({ ...m, tools: { t: { ...m.tools.bare, annotations: undefined } } }), 'must be an object or null'],
    [(m: any) => ({ ...m, tools: { t: { ...m.tools.bare, input_schema: undefined } } }), 'manifest.tools["t"].input_schema is required'],
    [(m: any) => ({ ...m, tools: { t: { ...m.tools.bare, input_schema: '{"type":' } } }), 'manifest.tools["t"].input_schema is not valid JSON: '],
  ])('refuses a manifest that does not hold together (%#)', (edit, message) => {
    const text = JSON.stringify(edit(JSON.parse(manifestText({ id: 'notes', tools: listed, features: [], capabilities: NO_CAPABILITIES }, when))));
    expect(() => parseManifest(readJson(text))).toThrow(ConfigError);
    expect(() => parseManifest(readJson(text))).toThrow(message);
  });

  describe('several servers', () => {
    const manifestDir = tempDirs('broker-manifest-');
    const load = (text: string): Manifest[] => {
      const dir = manifestDir();
      writeFileSync(join(dir, 'manifest.json'), text, { mode: 0o600 });
      return loadManifests(join(dir, 'manifest.json'), selectGuards([]).file);
    };

    it('writes one manifest for one server, and a set of each server\'s in order for several; reads either back', () => {
      const one = manifestsText([{ id: 'notes', tools: listed, features: [], capabilities: NO_CAPABILITIES }], when);
      expect(one).toBe(manifestText({ id: 'notes', tools: listed, features: [], capabilities: NO_CAPABILITIES }, when));
      expect(load(one).map((m) => [m.server, [...m.tools.keys()]])).toEqual([['notes', ['search_notes', 'bare']]]);
      const set = manifestsText([{ id: 'notes', tools: listed, features: [], capabilities: NO_CAPABILITIES }, { id: 'files', tools: [listed[1]!], features: [], capabilities: NO_CAPABILITIES }], when);
      expect(JSON.parse(set)).toEqual({ format: 'gauntlet-pin-set/1', manifests: [JSON.parse(one), { ...JSON.parse(manifestText({ id: 'files', tools: [listed[1]!], features: [], capabilities: NO_CAPABILITIES }, when)) }] });
      expect(set.endsWith('}\n')).toBe(true);
      expect(load(set).map((m) => [m.server, [...m.tools.keys()]])).toEqual([['notes', ['search_notes', 'bare']], ['files', ['bare']]]);
    });

    it('refuses a set without its manifests, or with a field it does not know', () => {
      expect(() => load('{"format":"gauntlet-pin-set/1"}')).toThrow(new ConfigError('manifest.manifests is required'));
      expect(() => load('{"format":"gauntlet-pin-set/1","manifests":[],"extra":1}')).toThrow('manifest has an unknown field "extra"');
      expect(() => load('{"format":"gauntlet-pin-set/1","manifests":[{"format":"gauntlet-pin/2"}]}')).toThrow('manifest.format must be "gauntlet-pin/1"');
    });
  });

  describe('resources, templates and prompts', () => {
    const descriptor = (kind: Descriptor['kind'], key: string, text: string): Descriptor => ({ kind, key, listed: readJson(text) as JsonObject });
    const features = [
      descriptor('resource', 'file:///notes/a', '{"uri":"file:///notes/a","name":"a","mimeType":"text/plain"}'),
      descriptor('resource', 'file:///notes/b', '{"name":"b","uri":"file:///notes/b"}'),
      descriptor('prompt', 'summarise', '{"name":"summarise","arguments":[{"name":"topic","required":true}]}'),
    ];
    const written = () => JSON.parse(manifestText({ id: 'notes', tools: listed, features, capabilities: NO_CAPABILITIES }, when));

    it('pins each descriptor by the SHA-256 of its canonical JSON, under its kind, and writes no section for a kind not listed', () => {
      const manifest = written();
      expect(manifest.resources).toEqual({
        'file:///notes/a': sha256Hex('{"mimeType":"text/plain","name":"a","uri":"file:///notes/a"}'),
        'file:///notes/b': sha256Hex('{"name":"b","uri":"file:///notes/b"}'),
      });
      expect(manifest.prompts).toEqual({ summarise: sha256Hex('{"arguments":[{"name":"topic","required":true}],"name":"summarise"}') });
      expect('resource_templates' in manifest).toBe(false);
      expect(descriptorHash(readJson('{ "b" : 1, "a" : 2.0 }') as JsonObject)).toBe(sha256Hex('{"a":2,"b":1}'));
    });

    it('reads back every pin by kind and key, and an empty map for a kind with no section', () => {
      const pins = parseManifest(readJson(JSON.stringify(written()))).features!;
      expect([...pins.keys()]).toEqual(['resource', 'template', 'prompt']);
      expect([...pins.get('resource')!]).toEqual([
        ['file:///notes/a', written().resources['file:///notes/a']],
        ['file:///notes/b', written().resources['file:///notes/b']],
      ]);
      expect(pins.get('template')!.size).toBe(0);
      expect([...pins.get('prompt')!.keys()]).toEqual(['summarise']);
    });

    it.each([
      ['resources', 'file:///x', 'A'.repeat(64)],
      ['resources', 'file:///x', 'a'.repeat(63)],
      ['resources', 'file:///x', `${'a'.repeat(64)}0`],
      ['resource_templates', 'file:///{n}', 7],
      ['prompts', 'p', null],
      ['prompts', 'p', `x${'a'.repeat(63)}`],
    ])('refuses %s[%j] = %j: not a lowercase SHA-256 hex digest', (section, key, value) => {
      const text = JSON.stringify({ ...written(), [section]: { [key]: value } });
      expect(() => parseManifest(readJson(text))).toThrow(ConfigError);
      expect(() => parseManifest(readJson(text))).toThrow(`${section}[${JSON.stringify(key)}] must be a lowercase SHA-256 hex digest`);
    });
  });
});

