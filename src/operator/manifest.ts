// The pin manifest: what the operator reviewed, per tool. `pin` writes it; `serve` reads it back
// and checks it is internally consistent, since a hand-edited or truncated manifest must stop
// the broker rather than pin something nobody reviewed.

import { canonicalJson } from '../json/canonical.js';
import { Fields } from './fields.js';
import { readJsonFile } from './files.js';
import type { FileGuard } from '../guards/types.js';
import { capabilitiesValue, readCapabilities } from './client-capabilities.js';
import { canonicalHash, schemaFingerprint, descriptionHash } from '../load/fingerprint.js';
import { readJson } from '../json/reader.js';
import { member, object, plain, stringValue } from '../json/tree.js';
import { writeJson } from '../json/writer.js';
import type { ClientFacts, Descriptor, JsonObject, JsonValue, ListedTool, PinnedTool, Manifest } from '../types.js';
import { PIN_SECTIONS, parsePins, pinEntries } from '../features/pins.js';

const MANIFEST_FORMAT = 'gauntlet-pin/1';
/** Several servers' manifests in one file, one per server, each as `gauntlet-pin/1` has it. */
const MANIFEST_SET_FORMAT = 'gauntlet-pin-set/1';

/** What one server presented when it was pinned. */
export interface PinnedServer {
  readonly id: string;
  readonly tools: readonly ListedTool[];
  /** The `instructions` its initialize answer gave; undefined when none. */
  readonly instructions?: string;
  /** The resources, templates and prompts it presented (docs/reference-broker.md). */
  readonly features: readonly Descriptor[];
  /** The client capabilities the broker declared to it: what it presented depends on them. */
  readonly capabilities: ClientFacts;
}

/** The manifest text for a listing; tools keep the server's order. */
export function manifestText(server: PinnedServer, pinnedAt: Date): string {
  return `${writeJson(manifestValue(server, pinnedAt))}\n`;
}

/**
 * The manifest for one server, or for several the set of each one's manifest, in the
 * configuration's order: each server is reviewed, and pinned, as its own.
 */
export function manifestsText(servers: readonly PinnedServer[], pinnedAt: Date): string {
  if (servers.length === 1) return manifestText(servers[0]!, pinnedAt);
  const set = object([
    ['format', plain(MANIFEST_SET_FORMAT)],
    ['manifests', { kind: 'array', items: servers.map((server) => manifestValue(server, pinnedAt)) }],
  ]);
  return `${writeJson(set)}\n`;
}

function manifestValue({ id: serverId, tools, instructions, features, capabilities }: PinnedServer, pinnedAt: Date): JsonObject {
  const entries = tools.map((tool) => {
    const schema = schemaFingerprint(tool.inputSchema);
    const entry = object([
      ['description_hash', plain(descriptionHash(tool.description))],
      ['title_hash', tool.title === undefined ? undefined : plain(descriptionHash(tool.title))],
      ['schema_hash', plain(schema.hash)],
      ['input_schema', plain(schema.canonical)],
      ['annotations', tool.annotations ?? plain(null)],
      ['output_schema', tool.outputSchema === undefined ? undefined : plain(canonicalJson(tool.outputSchema))],
      ['execution', tool.execution],
      ['icons', tool.icons],
    ]);
    return [tool.name, entry] as const;
  });
  const manifest = object([
    ['format', plain(MANIFEST_FORMAT)],
    ['server', plain(serverId)],
    ['pinned_at', plain(pinnedAt.toISOString())],
    ['client_capabilities', capabilitiesValue(capabilities)],
    ['instructions_hash', instructions === undefined ? undefined : plain(descriptionHash(instructions))],
    ['tools', object(entries)],
    ...pinEntries(features),
  ]);
  return manifest;
}

export function loadManifest(path: string, guards: readonly FileGuard[]): Manifest {
  return parseManifest(readJsonFile(path, 'manifest', guards));
}

/** Every manifest the file holds: one, or each of a set's, in its order. */
export function loadManifests(path: string, guards: readonly FileGuard[]): Manifest[] {
  const value = readJsonFile(path, 'manifest', guards);
  if (value.kind !== 'object' || stringValue(member(value, 'format')) !== MANIFEST_SET_FORMAT) return [parseManifest(value)];
  const top: Fields = new Fields(value, 'manifest', ['format', 'manifests']);
  return top.required('manifests', (f, k) => f.array(k)).map(parseManifest);
}

/** Whether it pins the server the configuration names is the `manifest-server` guard's to judge. */
export function parseManifest(value: JsonValue): Manifest {
  const top: Fields = new Fields(value, 'manifest', ['format', 'server', 'pinned_at', 'client_capabilities', 'instructions_hash', 'tools', ...Object.values(PIN_SECTIONS)]);
  if (top.string('format') !== MANIFEST_FORMAT) top.fail('format', `must be "${MANIFEST_FORMAT}"`);
  const server = top.required('server', (f, k) => f.string(k));
  top.required('pinned_at', (f, k) => f.string(k));
  const tools = new Map<string, PinnedTool>();
  const schemas: SchemaTexts = new Map();
  for (const [name, entry] of top.required('tools', (f, k) => f.entries(k))) {
    tools.set(name, parsePinnedTool(schemas, new Fields(entry, `manifest.tools[${JSON.stringify(name)}]`, [
      'description_hash',
      'title_hash',
      'schema_hash',
      'input_schema',
      'annotations',
      'output_schema',
      'execution',
      'icons',
    ])));
  }
  // A manifest from before they were recorded was pinned under none.
  const capabilities = top.get('client_capabilities');
  if (capabilities !== undefined && capabilities.kind !== 'object') top.fail('client_capabilities', 'must be an object');
  const instructions = top.string('instructions_hash');
  if (instructions !== undefined && !SHA256_HEX.test(instructions)) top.fail('instructions_hash', 'must be a lowercase SHA-256 hex digest');
  return { server, tools, instructionsHash: instructions, features: parsePins(top), capabilities: readCapabilities(capabilities) };
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * The schema texts of one manifest already read back and found canonical, each with its hash once
 * asked: a server often lists many tools with one schema, and the text decides both, so each
 * distinct text is parsed, checked and hashed once.
 */
type SchemaTexts = Map<string, SchemaText>;

interface SchemaText {
  readonly text: string;
  readonly schema: JsonObject;
  hash?: string;
}

function parsePinnedTool(schemas: SchemaTexts, f: Fields): PinnedTool {
  const digest = (key: string, value: string): string => (SHA256_HEX.test(value) ? value : f.fail(key, 'must be a lowercase SHA-256 hex digest'));
  const hash = (key: string): string => digest(key, f.required(key, (g, k) => g.string(k)));
  const descriptionHash = hash('description_hash');
  const title = f.string('title_hash');
  const execution = f.get('execution');
  if (execution !== undefined && execution.kind !== 'object') f.fail('execution', 'must be an object');
  const icons = f.get('icons');
  if (icons !== undefined && icons.kind !== 'array') f.fail('icons', 'must be an array');
  const schemaHash = hash('schema_hash');
  const input = canonicalSchema(schemas, f, 'input_schema');
  if (input === undefined) return f.fail('input_schema', 'is required');
  input.hash ??= canonicalHash(input.text);
  if (input.hash !== schemaHash) f.fail('schema_hash', 'does not match input_schema');
  const annotations = f.get('annotations');
  if (annotations?.kind !== 'object' && annotations?.kind !== 'null') f.fail('annotations', 'must be an object or null');
  return {
    descriptionHash,
    titleHash: title === undefined ? undefined : digest('title_hash', title),
    execution: execution?.kind === 'object' ? execution : undefined,
    schemaHash,
    inputSchema: input.schema,
    annotations: annotations.kind === 'object' ? annotations : undefined,
    outputSchema: canonicalSchema(schemas, f, 'output_schema')?.schema,
    icons: icons?.kind === 'array' ? icons : undefined,
  };
}

/** A schema kept as canonical JSON text, parsed back, with that text; undefined when the field is absent. */
function canonicalSchema(schemas: SchemaTexts, f: Fields, key: string): SchemaText | undefined {
  const text = f.string(key);
  if (text === undefined) return undefined;
  const known = schemas.get(text);
  if (known !== undefined) return known;
  let schema: JsonValue;
  try {
    schema = readJson(text);
  } catch (err) {
    return f.fail(key, `is not valid JSON: ${(err as Error).message}`);
  }
  if (schema.kind !== 'object') return f.fail(key, 'must be a JSON object');
  if (canonicalJson(schema) !== text) f.fail(key, 'is not in canonical form');
  const read: SchemaText = { text, schema };
  schemas.set(text, read);
  return read;
}
