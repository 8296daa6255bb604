// A tool's `x-mcp-header` annotations (MCP 2026-07-28, server/tools.mdx and basic/transports/
// streamable-http.mdx, "Custom Headers from Tool Parameters"): a primitive property of the input
// schema may name a header, `Mcp-Param-{name}`, into which an HTTP client mirrors the argument's
// value, so that intermediaries can route on it without reading the body. An annotation that
// breaks the spec's constraints makes the whole tool definition invalid, and a client "MUST
// exclude the invalid tool": a header name that is not a token (or carries CR/LF) cannot be sent,
// two names equal but for case are one header, and a property reached through `items`, a
// composition, a condition or a `$ref` has no single value a header could carry, so whoever
// routes on the header and whoever executes the body would disagree.
//
// The walk is iterative (a schema nested far past any stack's depth is read like any other), and
// `default`, `const`, `enum` and `examples` are data, never schemas: what they hold annotates
// nothing.

import type { JsonObject, JsonValue } from '../types.js';
import { member } from '../json/tree.js';

/** One valid annotation: the header's name part as the server wrote it, and the `properties` keys leading to it. */
export interface ParamHeader {
  readonly name: string;
  readonly path: readonly string[];
}

export type Annotations = { readonly ok: true; readonly headers: readonly ParamHeader[] } | { readonly ok: false; readonly reason: string };

const ANNOTATION = 'x-mcp-header';
/** RFC 9110's `1*tchar`: what a field name may be made of (no control character, CR or LF among them). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** The types a header may mirror: `number` is not one ("Parameters with type `number` are not permitted"). */
const PRIMITIVE = new Set(['string', 'integer', 'boolean']);
/** Keywords whose values are instance data, not schemas. */
const DATA_KEYWORDS = new Set(['default', 'const', 'enum', 'examples']);

/**
 * The chain of `properties` keys a node is reached by, last key first, sharing its parent's chain
 * (a deep schema costs one link a level, not a copy of the path); `ROOT` for the schema itself.
 */
interface Chain {
  readonly key: string;
  readonly parent: Chain | typeof ROOT;
}
const ROOT = 'root';

/** A schema node to look at, and its chain; null when it is reached any other way than through `properties`. */
interface Visit {
  readonly node: JsonValue;
  readonly chain: Chain | typeof ROOT | null;
}

/** The keys of a chain, root first. */
function keysOf(chain: Chain | typeof ROOT): string[] {
  const keys: string[] = [];
  for (let link = chain; link !== ROOT; link = link.parent) keys.unshift(link.key);
  return keys;
}

/** Every `x-mcp-header` annotation of an input schema, or why one of them makes the tool invalid. */
export function paramAnnotations(schema: JsonObject): Annotations {
  const headers: ParamHeader[] = [];
  const seen = new Set<string>();
  const stack: Visit[] = [{ node: schema, chain: ROOT }];
  while (stack.length > 0) {
    const { node, chain } = stack.pop()!;
    if (node.kind === 'array') {
      for (const item of node.items) stack.push({ node: item, chain: null });
      continue;
    }
    if (node.kind !== 'object') continue;
    const annotation = member(node, ANNOTATION);
    if (annotation !== undefined) {
      const problem = annotationProblem(node, annotation, chain === null || chain === ROOT ? null : keysOf(chain), seen);
      if (typeof problem === 'string') return { ok: false, reason: problem };
      headers.push(problem);
    }
    for (const [key, value] of node.entries) {
      if (key === ANNOTATION || DATA_KEYWORDS.has(key)) continue;
      if (key === 'properties' && value.kind === 'object') {
        for (const [property, sub] of value.entries) stack.push({ node: sub, chain: chain === null ? null : { key: property, parent: chain } });
      } else {
        stack.push({ node: value, chain: null });
      }
    }
  }
  return { ok: true, headers };
}

/** Why one annotation breaks the spec's constraints, or the header it names; a valid one's name is added to `seen`. */
function annotationProblem(node: JsonObject, annotation: JsonValue, path: readonly string[] | null, seen: Set<string>): string | ParamHeader {
  if (annotation.kind !== 'string' || annotation.value === '') return 'an x-mcp-header annotation is empty or not a string';
  const shown = JSON.stringify(annotation.value);
  if (!TOKEN.test(annotation.value)) return `x-mcp-header ${shown} is not an HTTP field-name token`;
  if (path === null) return `x-mcp-header ${shown} is not on a property reached through properties alone`;
  const type = member(node, 'type');
  if (type?.kind !== 'string' || !PRIMITIVE.has(type.value)) return `x-mcp-header ${shown} is on a property that is not a string, integer or boolean`;
  const folded = annotation.value.toLowerCase();
  if (seen.has(folded)) return `x-mcp-header ${shown} is not unique, case aside`;
  seen.add(folded);
  return { name: annotation.value, path };
}

/** A value a header carries as it is: visible ASCII, inner spaces and tabs, not the sentinel's form. */
const PLAIN_HEADER_VALUE = /^[\x21-\x7e](?:[\t\x20-\x7e]*[\x21-\x7e])?$/;

/**
 * A header value as 2026-07-28 carries it (streamable-http.mdx, "Value Encoding"): as it is when
 * it is plain visible ASCII without leading or trailing space; else, and when it looks like the
 * sentinel itself, the Base64 of its UTF-8 between `=?base64?` and `?=`.
 */
export function encodedHeaderValue(value: string): string {
  const plain = PLAIN_HEADER_VALUE.test(value) && !(value.startsWith('=?base64?') && value.endsWith('?='));
  return plain ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** The JavaScript safe-integer range the spec bounds an annotated integer to. */
const SAFE_INTEGER = /^-?\d{1,16}$/;

/**
 * The `Mcp-Param-*` headers of a call's arguments, each from the value at its annotation's path,
 * converted as "Type conversion" says (a string as it is, an integer in decimal, a boolean in lower
 * case) and encoded. A value that is absent, null, or not of a primitive kind gives no header: a
 * value the conversion does not cover is not guessed at (the server finds its header missing).
 */
export function paramHeaders(headers: readonly ParamHeader[], args: JsonValue | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { name, path } of headers) {
    let value: JsonValue | undefined = args;
    for (const key of path) value = value?.kind === 'object' ? member(value, key) : undefined;
    const text =
      value?.kind === 'string'
        ? value.value
        : value?.kind === 'bool'
          ? String(value.value)
          : value?.kind === 'number' && SAFE_INTEGER.test(value.text) && Number.isSafeInteger(Number(value.text))
            ? String(Number(value.text))
            : undefined;
    if (text !== undefined) out[`mcp-param-${name.toLowerCase()}`] = encodedHeaderValue(text);
  }
  return out;
}
