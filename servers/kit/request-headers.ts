/**
 * The headers a 2026-07-28 Streamable HTTP POST mirrors from its body (basic/transports/
 * streamable-http, "Request Metadata"): `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` and the
 * `Mcp-Param-{Name}` headers of `x-mcp-header`. The kit records what each request carried and
 * checks the standard ones against the body, as "Servers that process the request body **MUST**
 * reject requests where the values specified in the headers do not match the corresponding values
 * in the request body".
 */
import { isRecord } from './jsonrpc.js';

/** schema/2026-07-28 HEADER_MISMATCH: headers and body disagree, or a required header is missing. */
export const HEADER_MISMATCH = -32020;

/** The mirrored headers a request carried (names in lower case, values as sent); empty when none. */
export function mirroredHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name === 'mcp-method' || name === 'mcp-name' || name.startsWith('mcp-param-')));
}

/**
 * Where `Mcp-Name` is required, and the body member it mirrors: "`params.name` or `params.uri`" for
 * "`tools/call`, `resources/read`, `prompts/get` requests".
 */
const NAMED_BY: Readonly<Record<string, string>> = { 'tools/call': 'name', 'resources/read': 'uri', 'prompts/get': 'name' };

/**
 * Why a request's standard headers do not fit its body (a HeaderMismatch message), or null when they
 * do: "A required standard header (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`) is missing", or
 * "A header value does not match the corresponding request body value", an encoded `Mcp-Name`
 * decoded first. `version` is the body's `_meta` protocol version.
 */
export function headerMismatch(headers: Readonly<Record<string, string>>, method: string, params: unknown, version: string): string | null {
  const checks: Array<[string, string | undefined, unknown]> = [
    ['MCP-Protocol-Version', headers['mcp-protocol-version'], version],
    ['Mcp-Method', headers['mcp-method'], method],
  ];
  const member = NAMED_BY[method];
  if (member !== undefined) checks.push(['Mcp-Name', decoded(headers['mcp-name']), isRecord(params) ? params[member] : undefined]);
  for (const [name, header, body] of checks) {
    if (header === undefined) return `Header mismatch: required header ${name} is missing`;
    if (header !== body) return `Header mismatch: ${name} header value ${JSON.stringify(header)} does not match body value ${JSON.stringify(body ?? null)}`;
  }
  return null;
}

/**
 * What the server does with a call whose `Mcp-Param-*` header disagrees with its body (knob
 * `param_headers`): `checked` refuses it, as the spec asks; `trusted` acts on the header, as a
 * server behind a load balancer that routes on it does (servers/kit/http.ts).
 */
export const PARAM_HEADER_MODES = ['checked', 'trusted'] as const;
export type ParamHeaderMode = (typeof PARAM_HEADER_MODES)[number];

/** How one annotated header stood to the body's argument (ledger.ts, `ParamHeadersRecord`). */
export type ParamHeaderState = 'match' | 'mismatch' | 'absent';

/**
 * The `x-mcp-header` annotations of one of the kit's own input schemas: the header's name part and
 * the `properties` keys leading to it. Only the `properties` chain is followed: that is where a
 * valid annotation sits, and the kit checks what it would act on, never judges its own listing.
 */
export function annotatedPaths(schema: unknown, path: readonly string[] = []): Array<{ name: string; path: readonly string[] }> {
  if (!isRecord(schema)) return [];
  const own = typeof schema['x-mcp-header'] === 'string' && path.length > 0 ? [{ name: schema['x-mcp-header'], path }] : [];
  const properties = schema['properties'];
  return [...own, ...(isRecord(properties) ? Object.entries(properties).flatMap(([key, sub]) => annotatedPaths(sub, [...path, key])) : [])];
}

/** An argument as "Type conversion" turns it into header text: a string as it is, an integer in decimal, a boolean in lower case. */
function headerText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean' || (typeof value === 'number' && Number.isSafeInteger(value))) return String(value);
  return undefined;
}

/**
 * How each annotated header of a call stood to its arguments, by `x-mcp-header` name: "Server
 * MUST validate header matches body", an encoded value decoded first; an argument absent from the
 * body expects no header, and is left out.
 */
export function paramHeaderStates(headers: Readonly<Record<string, string>>, annotated: ReturnType<typeof annotatedPaths>, args: unknown): Record<string, ParamHeaderState> {
  const states: Record<string, ParamHeaderState> = {};
  for (const { name, path } of annotated) {
    const body = headerText(path.reduce<unknown>((value, key) => (isRecord(value) ? value[key] : undefined), args));
    const header = decoded(headers[`mcp-param-${name.toLowerCase()}`]);
    if (body === undefined && header === undefined) continue;
    states[name] = header === undefined ? 'absent' : header === body ? 'match' : 'mismatch';
  }
  return states;
}

/**
 * A header value with the Base64 sentinel (`=?base64?{Base64EncodedValue}?=`) decoded; any other
 * as it is. A sentinel around text that is not base64 is left as it is, so it matches no body
 * value (a client "**MUST** also Base64-encode any plain-ASCII value that matches the sentinel
 * pattern").
 */
export function decoded(value: string | undefined): string | undefined {
  const encoded = value === undefined ? null : /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/.exec(value);
  if (encoded === null || encoded[1]!.length % 4 !== 0) return value;
  return Buffer.from(encoded[1]!, 'base64').toString('utf8');
}
