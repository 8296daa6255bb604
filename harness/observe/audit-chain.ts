import { createHash } from 'node:crypto';

/** The `prev` of the first record: no record came before it. */
const GENESIS = '0'.repeat(64);

/**
 * RFC 8785-style canonical JSON for the values an audit record holds: keys sorted by UTF-16 code
 * units, no whitespace, strings and numbers as JSON.stringify writes them. Written here, apart
 * from the reference broker's own, so a bug in one cannot vouch for the other.
 */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
}

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
    const expected = createHash('sha256').update(prev + canonical(withoutHash), 'utf8').digest('hex');
    if (hash !== expected) return `record ${index} has hash ${String(hash)}, not ${expected}`;
    prev = expected;
  }
  return undefined;
}
