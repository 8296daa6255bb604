// Small constructors for the broker's unit tests: tools as a server lists them, pins as a
// manifest records them, and operator rules.

import type { Config, Effect, Rule } from '../../src/config.js';
import { DEFAULT_LIMITS } from '../../src/config.js';
import { descriptionHash, schemaFingerprint } from '../../src/fingerprint.js';
import { readJson } from '../../src/json/reader.js';
import type { JsonObject } from '../../src/json/tree.js';
import type { ListedTool } from '../../src/listing.js';
import type { PinnedTool } from '../../src/manifest.js';

export function json(text: string): JsonObject {
  const value = readJson(text);
  if (value.kind !== 'object') throw new Error(`not an object: ${text}`);
  return value;
}

export function tool(name: string, overrides: { description?: string; schema?: string; annotations?: string } = {}): ListedTool {
  return {
    name,
    description: 'description' in overrides ? overrides.description : `${name} does things`,
    inputSchema: json(overrides.schema ?? '{"type":"object"}'),
    annotations: overrides.annotations === undefined ? undefined : json(overrides.annotations),
  };
}

export function pinOf(listed: ListedTool): PinnedTool {
  return {
    descriptionHash: descriptionHash(listed.description),
    schemaHash: schemaFingerprint(listed.inputSchema).hash,
    inputSchema: listed.inputSchema,
    annotations: listed.annotations,
  };
}

export function rule(effect: Effect, overrides: Partial<Rule> = {}): Rule {
  return { effect, description: undefined, allowHintMismatch: false, callTimeoutMs: undefined, ...overrides };
}

export function config(rules: Record<string, Rule>): Config {
  return {
    server: { id: 'notes', command: 'node', args: [], env: new Map() },
    rules: new Map(Object.entries(rules)),
    limits: DEFAULT_LIMITS,
  };
}
