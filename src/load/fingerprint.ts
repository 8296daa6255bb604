// The two hashes a pin records. Both are taken over what the server sent, read by the broker's
// own reader, so nothing a float64 or a duplicate key would hide can slip between pin and Load.

import { hash } from 'node:crypto';
import { canonicalJson } from '../json/canonical.js';
import type { JsonValue } from '../types.js';

/** A string is hashed as its UTF-8 bytes. One call, no Hash object: the audit trail hashes twice a call. */
export function sha256Hex(data: string | Uint8Array): string {
  return hash('sha256', data, 'hex');
}

// A single 0xFF byte is never valid UTF-8, so no description, the empty one included, can hash
// like a missing description.
const NO_DESCRIPTION = Uint8Array.of(0xff);

/** SHA-256 over the description's UTF-8 bytes, or over a marker when the server sent none. */
export function descriptionHash(description: string | undefined): string {
  return sha256Hex(description === undefined ? NO_DESCRIPTION : Buffer.from(description, 'utf8'));
}

/** The canonical text of an input schema and the SHA-256 over its UTF-8 bytes. */
export function schemaFingerprint(schema: JsonValue): { readonly canonical: string; readonly hash: string } {
  const canonical = canonicalJson(schema);
  return { canonical, hash: canonicalHash(canonical) };
}

/** The hash of a schema whose canonical text is `canonical` (a manifest keeps that text). */
export function canonicalHash(canonical: string): string {
  return sha256Hex(Buffer.from(canonical, 'utf8'));
}
