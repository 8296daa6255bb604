// The inspection bounds (docs/result-path.md), checked before anything else: a value too deep,
// too large or too long to inspect is refused whole, so nothing uninspected is ever forwarded.

import type { JsonValue } from '../types.js';

export const INSPECTION_BOUNDS = {
  maxDepth: 32,
  maxNodes: 5_000,
  maxStringChars: 65_536,
  maxTotalChars: 65_536,
} as const;

/** Code points, counted without building an array: a bound must not cost what it bounds. */
export function codePoints(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/**
 * Why `strings` and `structure` together exceed a bound, or null. `structure` is measured for
 * depth (its top container is depth 1) and nodes (every value, keys excluded); every string in
 * either, keys included, counts toward the string bounds.
 */
export function boundsProblem(structure: JsonValue | undefined, strings: readonly string[] = []): string | null {
  let total = 0;
  const text = (s: string): string | null => {
    // A string's UTF-16 length is never less than its code points: the cheap test first.
    const chars = s.length <= INSPECTION_BOUNDS.maxStringChars ? s.length : codePoints(s);
    if (chars > INSPECTION_BOUNDS.maxStringChars) return `a string of ${chars} characters exceeds ${INSPECTION_BOUNDS.maxStringChars}`;
    total += chars;
    return total > INSPECTION_BOUNDS.maxTotalChars ? `its strings exceed ${INSPECTION_BOUNDS.maxTotalChars} characters together` : null;
  };
  for (const s of strings) {
    const problem = text(s);
    if (problem !== null) return problem;
  }
  if (structure === undefined) return null;
  let nodes = 0;
  // Iterative, so that the bound and not the call stack decides on a deep value.
  const stack: { value: JsonValue; depth: number }[] = [{ value: structure, depth: structure.kind === 'array' || structure.kind === 'object' ? 1 : 0 }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const { value, depth } = top;
    if (++nodes > INSPECTION_BOUNDS.maxNodes) return `it has more than ${INSPECTION_BOUNDS.maxNodes} values`;
    if (depth > INSPECTION_BOUNDS.maxDepth) return `it nests deeper than ${INSPECTION_BOUNDS.maxDepth}`;
    const child = (item: JsonValue) => ({ value: item, depth: item.kind === 'array' || item.kind === 'object' ? depth + 1 : depth });
    if (value.kind === 'string') {
      const problem = text(value.value);
      if (problem !== null) return problem;
    } else if (value.kind === 'array') {
      for (const item of value.items) stack.push(child(item));
    } else if (value.kind === 'object') {
      for (const [key, item] of value.entries) {
        const problem = text(key);
        if (problem !== null) return problem;
        stack.push(child(item));
      }
    }
  }
  return null;
}
