import { parse as parseLossless, stringify as stringifyLossless } from 'lossless-json';

/** The arguments of a forwarded call, decoded from the ledger's raw line without losing numbers. */
export function receivedArguments(raw: string): Record<string, unknown> {
  try {
    const message = parseLossless(raw) as { params?: { arguments?: Record<string, unknown> } };
    return message.params?.arguments ?? {};
  } catch {
    return {};
  }
}

export const losslessText = (value: unknown) => stringifyLossless(value) ?? 'undefined';

/** Equal as JSON values: both sides written by the same lossless writer, number text kept. */
export function sameJson(received: unknown, expected: unknown): boolean {
  return losslessText(received) === losslessText(expected);
}

/** Each wanted argument the server did not receive with that value: what it got, or `(absent)`. */
export function argumentMismatches(args: Record<string, unknown>, wanted: Record<string, unknown>): Array<{ name: string; expected: unknown; observed: string }> {
  return Object.entries(wanted).flatMap(([name, expected]) =>
    name in args && sameJson(args[name], expected) ? [] : [{ name, expected, observed: name in args ? losslessText(args[name]) : '(absent)' }],
  );
}
