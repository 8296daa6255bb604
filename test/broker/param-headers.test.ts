// The reference's reading of MCP 2026-07-28's `x-mcp-header` annotations: which make a tool
// invalid (the param-headers guard refuses it), and the `Mcp-Param-*` headers a call to an HTTP
// server carries, computed from the body it forwards with the spec's value encoding.

import { afterEach, describe, expect, it } from 'vitest';
import { paramHeadersValid } from '../../src/guards/param-headers.js';
import { readJson } from '../../src/json/reader.js';
import { encodedHeaderValue, paramAnnotations, paramHeaders } from '../../src/schema/param-headers.js';
import { HttpConnection } from '../../src/upstream/http.js';
import { ListedParams } from '../../src/upstream/listed-params.js';
import type { JsonObject, JsonValue } from '../../src/types.js';
import { closeListeners, listen } from './loopback-http.js';

afterEach(closeListeners);

const schema = (text: string): JsonObject => readJson(text) as JsonObject;
const withRegion = (region: string, extra = ''): JsonObject => schema(`{"type":"object","properties":{"query":{"type":"string"},"region":${region}}${extra}}`);

describe('x-mcp-header annotations', () => {
  it('reads a valid annotation, nested ones reached through properties too, and ignores data that only looks like one', () => {
    expect(paramAnnotations(withRegion('{"type":"string","x-mcp-header":"Region"}'))).toEqual({ ok: true, headers: [{ name: 'Region', path: ['region'] }] });
    const nested = schema('{"type":"object","properties":{"where":{"type":"object","properties":{"zone":{"type":"integer","x-mcp-header":"Zone"}}},"flag":{"type":"boolean","x-mcp-header":"Flag"}}}');
    expect(paramAnnotations(nested)).toEqual({ ok: true, headers: expect.arrayContaining([{ name: 'Zone', path: ['where', 'zone'] }, { name: 'Flag', path: ['flag'] }]) as unknown });
    expect(paramAnnotations(withRegion('{"type":"string","default":{"x-mcp-header":"Not An Annotation"}}'))).toEqual({ ok: true, headers: [] });
  });

  it.each([
    ['empty', withRegion('{"type":"string","x-mcp-header":""}'), /empty/],
    ['CR/LF', withRegion('{"type":"string","x-mcp-header":"Region\\r\\nX-Injected: 1"}'), /not an HTTP field-name token/],
    ['not a token', withRegion('{"type":"string","x-mcp-header":"Region Name"}'), /not an HTTP field-name token/],
    ['duplicated, case aside', schema('{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"Region"},"b":{"type":"string","x-mcp-header":"region"}}}'), /not unique/],
    ['on a number', withRegion('{"type":"number","x-mcp-header":"Region"}'), /not a string, integer or boolean/],
    ['without a type', withRegion('{"x-mcp-header":"Region"}'), /not a string, integer or boolean/],
    ['under items', withRegion('{"type":"array","items":{"type":"string","x-mcp-header":"Region"}}'), /properties alone/],
    ['under oneOf', withRegion('{"oneOf":[{"type":"string","x-mcp-header":"Region"}]}'), /properties alone/],
    ['under if/then', withRegion('{"type":"string","if":{"minLength":1},"then":{"type":"string","x-mcp-header":"Region"}}'), /properties alone/],
    ['through $ref', withRegion('{"$ref":"#/$defs/region"}', ',"$defs":{"region":{"type":"string","x-mcp-header":"Region"}}'), /properties alone/],
    ['on the root', schema('{"type":"object","x-mcp-header":"Region"}'), /properties alone/],
  ])('makes a tool invalid when it is %s', (_form, input, reason) => {
    const read = paramAnnotations(input);
    expect(read.ok).toBe(false);
    expect(read.ok ? '' : read.reason).toMatch(reason);
    expect(paramHeadersValid.check({ inputSchema: input } as Parameters<typeof paramHeadersValid.check>[0])).toMatchObject({ kind: 'refuse' });
  });

  it('reads a schema nested far past any stack without overflowing', () => {
    // Built as a tree: the reader bounds the depth of what it reads, a pinned schema need not come through it.
    let deep: JsonObject = { kind: 'object', entries: [['type', { kind: 'string', value: 'string' }]] };
    for (let i = 0; i < 20_000; i++) deep = { kind: 'object', entries: [['properties', { kind: 'object', entries: [['a', deep]] }]] };
    expect(paramAnnotations(deep)).toEqual({ ok: true, headers: [] });
  });
});

describe('Mcp-Param-* values', () => {
  it('encode as the spec’s table says', () => {
    expect(encodedHeaderValue('us-west1')).toBe('us-west1');
    expect(encodedHeaderValue('Hello, 世界')).toBe('=?base64?SGVsbG8sIOS4lueVjA==?=');
    expect(encodedHeaderValue(' padded ')).toBe('=?base64?IHBhZGRlZCA=?=');
    expect(encodedHeaderValue('line1\nline2')).toBe('=?base64?bGluZTEKbGluZTI=?=');
    expect(encodedHeaderValue('=?base64?literal?=')).toBe('=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=');
  });

  it('come from the value at each annotation’s path: strings, integers and booleans; nothing for an absent, null or other value', () => {
    const headers = [
      { name: 'Region', path: ['region'] },
      { name: 'Zone', path: ['where', 'zone'] },
      { name: 'Flag', path: ['flag'] },
      { name: 'Ratio', path: ['ratio'] },
    ];
    expect(paramHeaders(headers, readJson('{"region":"eu\\r\\nX-Injected: 1","where":{"zone":-7},"flag":false,"ratio":1.5}'))).toEqual({
      'mcp-param-region': `=?base64?${Buffer.from('eu\r\nX-Injected: 1').toString('base64')}?=`,
      'mcp-param-zone': '-7',
      'mcp-param-flag': 'false',
    });
    expect(paramHeaders(headers, readJson('{"region":null,"where":"x"}'))).toEqual({});
  });
});

const META = '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}';
const LISTING = `{"tools":[{"name":"search","inputSchema":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}},{"name":"bad","inputSchema":{"type":"object","properties":{"r":{"type":"number","x-mcp-header":"R"}}}}]}`;

describe('ListedParams', () => {
  it('gives a call the headers its tool’s listing annotates, and none to a tool listed invalid, unlisted, or relisted without them', () => {
    const listed = new ListedParams();
    listed.learn(readJson(LISTING));
    expect(listed.headersFor(readJson('{"name":"search","arguments":{"region":"us-west1"}}'))).toEqual({ 'mcp-param-region': 'us-west1' });
    expect(listed.headersFor(readJson('{"name":"bad","arguments":{"r":1}}'))).toEqual({});
    expect(listed.headersFor(readJson('{"name":"other","arguments":{"region":"x"}}'))).toEqual({});
    listed.learn(readJson('{"tools":[{"name":"search","inputSchema":{"type":"object"}}]}'));
    expect(listed.headersFor(readJson('{"name":"search","arguments":{"region":"us-west1"}}'))).toEqual({});
  });
});

describe('HttpConnection toward a 2026-07-28 server', () => {
  it('mirrors an annotated argument of a call from the body it sends, never on a request of the handshake’s revisions', async () => {
    const seen: Array<string | undefined> = [];
    const url = await listen((request, body, response) => {
      seen.push(request.headers['mcp-param-region'] as string | undefined);
      const { id, method } = JSON.parse(body) as { id: number; method: string };
      const result = method === 'tools/list' ? JSON.parse(LISTING) : { content: [] };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, result }));
    });
    const connection = new HttpConnection('notes', url, { followRedirects: false, maxBodyBytes: 65_536, bearer: undefined }, { refuse: () => null });
    const call = (params: string): Promise<unknown> => connection.request('tools/call', readJson(params) as JsonValue, 5000, 'tools/call');
    await connection.request('tools/list', readJson(`{${META}}`), 5000, 'tools/list');
    await call(`{"name":"search","arguments":{"region":"Hello, 世界"},${META}}`);
    await call('{"name":"search","arguments":{"region":"us-west1"}}');
    await connection.close();
    expect(seen).toEqual([undefined, '=?base64?SGVsbG8sIOS4lueVjA==?=', undefined]);
  });
});
