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

/** Equal as JSON values: both sides written by the same lossless writer. */
export function sameJson(received: unknown, expected: unknown): boolean {
  return losslessText(parseLossless(losslessText(received))) === losslessText(parseLossless(losslessText(expected)));
}
