// What a 2026-07-28 POST to the front door must agree on (basic/transports/streamable-http.mdx,
// "Request Metadata" and "Server Validation"): the headers mirror the body, so that whatever
// routes or filters on the headers sees what the broker acts on. `Mcp-Method` must be the body's
// method, `Mcp-Name` the `params.name` of tools/call and prompts/get and the `params.uri` of
// resources/read (a value outside plain ASCII comes as `=?base64?...?=`, decoded before the
// comparison), and `MCP-Protocol-Version` the `_meta` version of the body. Any disagreement, a
// header missing, or one malformed, is a HeaderMismatch: the request is refused before its
// Session sees it. So is a tools/call whose `Mcp-Param-*` header, decoded, says otherwise than the
// argument its tool's offered schema annotates with `x-mcp-header` (or names one the body lacks):
// whatever routed on it acted on another value than the call carries. An annotated argument sent
// without its header is served (the broker makes the server's headers from the body it forwards,
// src/upstream/listed-params.ts, so nothing downstream sees a header the body does not hold).

import type { IncomingHttpHeaders } from 'node:http';
import { member, stringValue } from '../json/tree.js';
import { MIRRORED_NAME, META, requestMeta } from '../wire/revision.js';
import type { Message } from '../wire/jsonrpc.js';
import { paramHeaders, type ParamHeader } from '../schema/param-headers.js';

const SENTINEL = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;
/** RFC 9110's field-value characters: visible ASCII, space and tab. */
const FIELD_VALUE = /^[\t\x20-\x7e]*$/;

/** What is wrong with a 2026-07-28 request's headers, or undefined when they mirror its body. */
export function headerMismatch(headers: IncomingHttpHeaders, message: Extract<Message, { kind: 'request' }>, version: string): string | undefined {
  const sent = requestMeta(message.params);
  const bodyVersion = sent === undefined ? undefined : stringValue(member(sent, META.protocolVersion));
  if (bodyVersion !== version) return `MCP-Protocol-Version header value '${version}' does not match body value '${bodyVersion ?? ''}'`;
  const method = single(headers['mcp-method']);
  if (method === undefined) return 'the Mcp-Method header is missing';
  if (method !== message.method) return `Mcp-Method header value '${method}' does not match body value '${message.method}'`;
  const field = MIRRORED_NAME[message.method];
  if (field === undefined) return undefined;
  const header = single(headers['mcp-name']);
  if (header === undefined) return 'the Mcp-Name header is missing';
  const name = decoded(header);
  if (name === undefined) return 'the Mcp-Name header is malformed';
  const body = message.params?.kind === 'object' ? stringValue(member(message.params, field)) : undefined;
  return name === body ? undefined : `Mcp-Name header value does not match body value of params.${field}`;
}

/**
 * What is wrong with a tools/call's `Mcp-Param-*` headers, given the annotations of the tool's
 * offered schema, or undefined when each one sent says what the body says.
 */
export function paramHeaderMismatch(headers: IncomingHttpHeaders, message: Extract<Message, { kind: 'request' }>, annotated: readonly ParamHeader[]): string | undefined {
  const args = message.params?.kind === 'object' ? member(message.params, 'arguments') : undefined;
  const expected = paramHeaders(annotated, args);
  for (const { name } of annotated) {
    const key = `mcp-param-${name.toLowerCase()}`;
    if (headers[key] === undefined) continue;
    const sent = single(headers[key]);
    const body = expected[key];
    if (sent === undefined || decoded(sent) === undefined) return `the Mcp-Param-${name} header is malformed`;
    if (body === undefined || decoded(sent) !== decoded(body)) return `Mcp-Param-${name} header value does not match the body's argument`;
  }
  return undefined;
}

/** A header given once; undefined when absent or repeated. */
function single(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A header value as the client meant it: the Base64 sentinel decoded (UTF-8, exactly), else as sent if it is a plain field value. */
function decoded(value: string): string | undefined {
  const encoded = SENTINEL.exec(value)?.[1];
  if (encoded === undefined) return FIELD_VALUE.test(value) && !value.startsWith('=?base64?') ? value : undefined;
  const bytes = Buffer.from(encoded, 'base64');
  // Base64 that does not round-trip is not the encoding the spec names.
  if (bytes.toString('base64') !== encoded) return undefined;
  const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  try {
    return text.decode(bytes);
  } catch {
    return undefined;
  }
}
