/** Every string in a decoded JSON value, keys included, in document order. */
export function everyString(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, item]) => [key, ...everyString(item)]);
}
