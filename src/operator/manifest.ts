// The pin manifest: what the operator reviewed, per tool. `pin` writes it; `serve` reads it back
// and checks it is internally consistent, since a hand-edited or truncated manifest must stop
// the broker rather than pin something nobody reviewed.

import { canonicalJson } from '../json/canonical.js';
import { Fields } from './fields.js';
import { readJsonFile } from './files.js';
import type { FileGuard } from '../guards/types.js';
import { schemaFingerprint, descriptionHash } from '../load/fingerprint.js';
import { readJson } from '../json/reader.js';
import { object, plain } from '../json/tree.js';
import { writeJson } from '../json/writer.js';
import type { JsonObject, JsonValue, ListedTool, PinnedTool, Manifest } from '../types.js';

const MANIFEST_FORMAT = 'gauntlet-pin/1';

import { PIN_SECTIONS, parsePins, pinEntries } from '../features/pins.js';
import type { Descriptor } from '../types.js';
/** The manifest text for a listing; tools keep the server's order. */
export function manifestText(serverId: string, pinnedAt: Date, tools: readonly ListedTool[], features: readonly Descriptor[] = []): string {
  const entries = tools.map((tool) => {
    const schema = schemaFingerprint(tool.inputSchema);
    const entry = object([
      ['description_hash', plain(descriptionHash(tool.description))],
      ['schema_hash', plain(schema.hash)],
      ['input_schema', plain(schema.canonical)],
      ['annotations', tool.annotations ?? plain(null)],
      ['output_schema', tool.outputSchema === undefined ? undefined : plain(canonicalJson(tool.outputSchema))],
    ]);
    return [tool.name, entry] as const;
  });
  const manifest = object([
    ['format', plain(MANIFEST_FORMAT)],
    ['server', plain(serverId)],
    ['pinned_at', plain(pinnedAt.toISOString())],
    ['tools', object(entries)],
    ...pinEntries(features),
  ]);
  return `${writeJson(manifest)}\n`;
}

export function loadManifest(path: string, guards: readonly FileGuard[]): Manifest {
  return parseManifest(readJsonFile(path, 'manifest', guards));
}

/** Whether it pins the server the configuration names is the `manifest-server` guard's to judge. */
export function parseManifest(value: JsonValue): Manifest {
  const top: Fields = new Fields(value, 'manifest', ['format', 'server', 'pinned_at', 'tools', ...Object.values(PIN_SECTIONS)]);
  if (top.string('format') !== MANIFEST_FORMAT) top.fail('format', `must be "${MANIFEST_FORMAT}"`);
  const server = top.required('server', (f, k) => f.string(k));
  top.required('pinned_at', (f, k) => f.string(k));
  const tools = new Map<string, PinnedTool>();
  for (const [name, entry] of top.required('tools', (f, k) => f.entries(k))) {
    tools.set(name, parsePinnedTool(new Fields(entry, `manifest.tools[${JSON.stringify(name)}]`, [
      'description_hash',
      'schema_hash',
      'input_schema',
      'annotations',
      'output_schema',
    ])));
  }
  return { server, tools, features: parsePins(top) };
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

function parsePinnedTool(f: Fields): PinnedTool {
  const hash = (key: string): string => {
    const value = f.required(key, (g, k) => g.string(k));
    if (!SHA256_HEX.test(value)) f.fail(key, 'must be a lowercase SHA-256 hex digest');
    return value;
  };
  const descriptionHash = hash('description_hash');
  const schemaHash = hash('schema_hash');
  const inputSchema = canonicalSchema(f, 'input_schema');
  if (inputSchema === undefined) return f.fail('input_schema', 'is required');
  if (schemaFingerprint(inputSchema).hash !== schemaHash) f.fail('schema_hash', 'does not match input_schema');
  const annotations = f.get('annotations');
  if (annotations?.kind !== 'object' && annotations?.kind !== 'null') f.fail('annotations', 'must be an object or null');
  return {
    descriptionHash,
    schemaHash,
    inputSchema,
    annotations: annotations.kind === 'object' ? annotations : undefined,
    outputSchema: canonicalSchema(f, 'output_schema'),
  };
}

/** A schema kept as canonical JSON text, parsed back; undefined when the field is absent. */
function canonicalSchema(f: Fields, key: string): JsonObject | undefined {
  const text = f.string(key);
  if (text === undefined) return undefined;
  let schema: JsonValue;
  try {
    schema = readJson(text);
  } catch (err) {
    return f.fail(key, `is not valid JSON: ${(err as Error).message}`);
  }
  if (schema.kind !== 'object') return f.fail(key, 'must be a JSON object');
  if (canonicalJson(schema) !== text) f.fail(key, 'is not in canonical form');
  return schema;
}
