// What a pin records of resources, templates and prompts: for each descriptor the server listed,
// the SHA-256 of the canonical JSON of the whole descriptor, so any change to what the agent
// would be shown (a description, a prompt's arguments, a name, a MIME type) is a change.

import type { Fields } from '../operator/fields.js';
import { sha256Hex } from '../load/fingerprint.js';
import { canonicalJson } from '../json/canonical.js';
import { object, plain } from '../json/tree.js';
import type { Descriptor, FeatureKind, FeaturePins, JsonObject, JsonValue } from '../types.js';

/** The manifest member each kind is pinned under. */
export const PIN_SECTIONS: Readonly<Record<FeatureKind, string>> = { resource: 'resources', template: 'resource_templates', prompt: 'prompts' };

export function descriptorHash(listed: JsonObject): string {
  return sha256Hex(Buffer.from(canonicalJson(listed), 'utf8'));
}

/** The manifest's members for the descriptors listed at pin time; a kind not listed has none. */
export function pinEntries(descriptors: readonly Descriptor[]): [string, JsonValue | undefined][] {
  return (Object.entries(PIN_SECTIONS) as [FeatureKind, string][]).map(([kind, section]) => {
    const ofKind = descriptors.filter((descriptor) => descriptor.kind === kind);
    return [section, ofKind.length === 0 ? undefined : object(ofKind.map((descriptor) => [descriptor.key, plain(descriptorHash(descriptor.listed))]))];
  });
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

export function parsePins(top: Fields): FeaturePins {
  const pins = new Map<FeatureKind, Map<string, string>>();
  for (const [kind, section] of Object.entries(PIN_SECTIONS) as [FeatureKind, string][]) {
    const entries = new Map<string, string>();
    for (const [key, value] of top.entries(section) ?? []) {
      if (value.kind !== 'string' || !SHA256_HEX.test(value.value)) top.fail(`${section}[${JSON.stringify(key)}]`, 'must be a lowercase SHA-256 hex digest');
      entries.set(key, value.value);
    }
    pins.set(kind, entries);
  }
  return pins;
}
