// What the agent is sent for one tool. Load inspects this very object and the session lists it,
// so what was inspected is exactly what is sent.

import { object, plain } from '../json/tree.js';
import type { JsonObject, Presentation } from '../types.js';

/**
 * A tool's entry in the agent's listing, the members MCP 2025-11-25 defines that the broker keeps,
 * in that schema's order; what is inspected is exactly what is sent.
 */
export function toolDescriptor(name: string, shown: Presentation): JsonObject {
  const text = (value: string | undefined) => (value === undefined ? undefined : plain(value));
  return object([
    ['name', plain(name)],
    ['title', text(shown.title)],
    ['description', text(shown.description)],
    ['inputSchema', shown.inputSchema],
    ['outputSchema', shown.outputSchema],
    ['annotations', shown.annotations],
    ['execution', shown.execution],
    ['icons', shown.icons],
  ]);
}
