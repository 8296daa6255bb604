import { canonicalJson, sha256Hex } from './canonical.js';

/** The `prev` of the first record: no record came before it. */
const GENESIS = '0'.repeat(64);

/**
 * Checks an audit trail against the chain form of docs/call-path.md: each record's `prev` is the
 * `hash` of the record before it (64 zeros for the first), and its `hash` is the SHA-256 hex of
 * `prev` followed by the canonical JSON of the record without `hash`. Returns the first problem.
 */
export function chainProblem(lines: readonly string[]): string | undefined {
  if (lines.length === 0) return 'the trail is empty';
  let prev = GENESIS;
  for (const [index, line] of lines.entries()) {
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return `record ${index} is not JSON`;
    }
    const { hash, ...withoutHash } = record;
    if (record.prev !== prev) return `record ${index} does not link to the one before it`;
    const expected = sha256Hex(prev + canonicalJson(withoutHash));
    if (hash !== expected) return `record ${index} has hash ${String(hash)}, not ${expected}`;
    prev = expected;
  }
  return undefined;
}
