/**
 * How the kit writes the result of a tools/call (MCP's CallToolResult): content blocks as data,
 * and structured content as raw JSON text, since some of it is echoed from a call or too deep for
 * a recursive writer.
 */
import { type JsonObject, type JsonValue, writeJson } from './json-text.js';

export interface ResultParts {
  /** Raw JSON text of `structuredContent`; absent leaves the key out. */
  structured?: string;
  isError?: true;
  /** Raw JSON text of the result's `_meta`; absent leaves the key out. */
  meta?: string;
}

export function toolResult(content: readonly JsonValue[], { structured, isError, meta }: ResultParts = {}): string {
  return (
    `{"content":${writeJson([...content])}` +
    `${structured === undefined ? '' : `,"structuredContent":${structured}`}` +
    `${isError ? ',"isError":true' : ''}` +
    `${meta === undefined ? '' : `,"_meta":${meta}`}}`
  );
}

export function textBlock(text: string): JsonObject {
  return { type: 'text', text };
}
