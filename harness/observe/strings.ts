import { parse as parseLossless } from 'lossless-json';

/** Every string in a decoded JSON value, keys included, in document order. */
export function everyString(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, item]) => [key, ...everyString(item)]);
}

/** Every string of one line the agent received, decoded; a line it cannot decode still reaches it as text. */
export function stringsOfLine(line: string): string[] {
  try {
    return everyString(parseLossless(line));
  } catch {
    return [line];
  }
}
