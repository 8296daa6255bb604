import { createHash } from 'node:crypto';
import { isLosslessNumber } from 'lossless-json';

/**
 * RFC 8785-style canonical JSON of a value JSON.parse produced: keys sorted by UTF-16 code units,
 * no whitespace, strings and numbers as JSON.stringify writes them. Written here, apart from the
 * reference broker's own, so a bug in one cannot vouch for the other. It agrees with the
 * canonical form of docs/call-path.md for every number a float64 holds exactly, which is every
 * number the scenarios that hash with it use.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  // An exact number from a scenario (`!exact`), which the loader admits only in plain form (no
  // exponent, no leading or trailing zeros): that is already its canonical text, digit for digit.
  if (isLosslessNumber(value)) return value.value;
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
}

/** Lowercase hex SHA-256 of a string's UTF-8 bytes. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

