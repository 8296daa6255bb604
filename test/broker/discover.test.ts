// The stdio probe of MCP 2026-07-28, and the upstream it leads to: which servers are spoken to per
// request, which initialized as before, and which cannot be spoken to at all; then what a request
// to a 2026-07-28 server carries.

import { describe, expect, it } from 'vitest';
import { discover } from '../../src/load/discover.js';
import { PerRequestUpstream, mirroredHeaders } from '../../src/upstream/per-request.js';
import { RequestTimedOut, ServerGone, UpstreamError } from '../../src/errors.js';
import { capabilitiesValue } from '../../src/operator/client-capabilities.js';
import { readJson } from '../../src/json/reader.js';
import { clientFacts } from './builders.js';
import { FakeRequester } from './fake-requester.js';

const probe = (answer: ConstructorParameters<typeof FakeRequester>[0]) => discover(new FakeRequester(answer), 'notes', clientFacts({ sampling: true }), 100);

describe('server/discover as the stdio probe', () => {
  it('speaks 2026-07-28 to a server whose DiscoverResult lists it, reading its instructions and logging as initialize’s', async () => {
    const server = new FakeRequester(() => '{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"logging":{}},"instructions":"Be brief.","ttlMs":0,"cacheScope":"public"}');
    expect(await discover(server, 'notes', clientFacts({ sampling: true }), 100)).toEqual({ instructions: 'Be brief.', logging: true });
    expect(server.asked).toEqual([
      {
        method: 'server/discover',
        params: '{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"sampling":{}},"io.modelcontextprotocol/clientInfo":{"name":"gauntlet-reference-broker","version":"0.1.0"}}}',
        timeoutMs: 100,
      },
    ]);
  });

  it('initializes a server that answers with a JSON-RPC error, not at all, anything but a DiscoverResult, or only older versions', async () => {
    expect(await probe(() => ({ error: '{"code":-32601,"message":"Method not found"}' }))).toBeUndefined();
    expect(await probe(() => ({ error: '{"code":-32602,"message":"not initialized"}' }))).toBeUndefined();
    expect(await probe(() => new RequestTimedOut('no answer', 100))).toBeUndefined();
    expect(await probe(() => '{"protocolVersion":"2025-11-25"}')).toBeUndefined();
    expect(await probe(() => '{"supportedVersions":["2025-11-25","2027-01-01"]}')).toBeUndefined();
    expect(await probe(() => ({ error: '{"code":-32022,"message":"no","data":{"supported":["2025-06-18"],"requested":"2026-07-28"}}' }))).toBeUndefined();
  });

  it('fails Load for a modern server that speaks no revision the broker speaks', async () => {
    await expect(probe(() => '{"supportedVersions":["2027-01-01"]}')).rejects.toThrow(UpstreamError);
    await expect(probe(() => ({ error: '{"code":-32022,"message":"no","data":{"supported":["2027-01-01"],"requested":"2026-07-28"}}' }))).rejects.toThrow(/UnsupportedProtocolVersion/);
  });

  it('initializes a server whose probe failed otherwise (an HTTP error, as an older HTTP server answers): one that is gone fails the initialize', async () => {
    expect(await probe(() => new UpstreamError('server "notes" answered server/discover with HTTP 400'))).toBeUndefined();
    expect(await probe(() => new ServerGone('server "notes" closed its output', 'notes', true))).toBeUndefined();
  });

  it('fails Load for a server it never reached: that says nothing of its revision', async () => {
    await expect(probe(() => new ServerGone('server "notes" was not dialled at 10.0.0.1: refused', 'notes', false))).rejects.toThrow('was not dialled');
  });
});

describe('a request to a 2026-07-28 server', () => {
  const upstream = () => {
    const inner = new FakeRequester(() => '{"resultType":"complete"}');
    const closable = Object.assign(inner, { close: () => Promise.resolve() });
    return { inner, spoken: new PerRequestUpstream(closable, capabilitiesValue(clientFacts({ roots: true })), readJson('{"name":"b","version":"1"}')) };
  };

  it('carries the broker’s own version, capabilities and name over whatever the request held, and the log level an older agent set', async () => {
    const { inner, spoken } = upstream();
    await spoken.request('tools/call', readJson('{"name":"t","_meta":{"io.modelcontextprotocol/clientCapabilities":{"sampling":{}},"progressToken":"p"}}'), 50, 'call');
    expect((await spoken.request('logging/setLevel', readJson('{"level":"warning"}'), 50, 'level')).ok).toBe(true);
    expect((await spoken.request('logging/setLevel', readJson('{"level":"loud"}'), 50, 'level')).ok).toBe(false);
    await spoken.request('tools/list', undefined, 50, 'list');
    spoken.notify('notifications/initialized', undefined);
    spoken.notify('notifications/cancelled', undefined);
    expect(inner.asked.map((a) => a.params)).toEqual([
      '{"name":"t","_meta":{"progressToken":"p","io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{}},"io.modelcontextprotocol/clientInfo":{"name":"b","version":"1"}}}',
      '{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{}},"io.modelcontextprotocol/clientInfo":{"name":"b","version":"1"},"io.modelcontextprotocol/logLevel":"warning"}}',
    ]);
    expect(inner.notified).toEqual(['notifications/cancelled']);
  });

  it('refuses every request the server itself sends: in this revision it asks in its results', async () => {
    const { inner, spoken } = upstream();
    spoken.onRequest(() => Promise.resolve({ ok: true, result: readJson('{}') }));
    const reply = await inner.serverRequests('sampling/createMessage', '{}');
    expect(reply.ok).toBe(false);
  });
});

describe('the headers of a request to a 2026-07-28 server over HTTP', () => {
  it('mirror its version, method and subject, a subject outside plain ASCII in the Base64 sentinel form; none for an older request', () => {
    const meta = '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}';
    expect(mirroredHeaders('tools/call', readJson(`{"name":"search",${meta}}`))).toEqual({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'search' });
    expect(mirroredHeaders('resources/read', readJson(`{"uri":"file:///é",${meta}}`))).toEqual({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'resources/read', 'mcp-name': `=?base64?${Buffer.from('file:///é').toString('base64')}?=` });
    expect(mirroredHeaders('prompts/get', readJson(`{"name":"=?base64?x?=",${meta}}`))['mcp-name']).toBe(`=?base64?${Buffer.from('=?base64?x?=').toString('base64')}?=`);
    expect(mirroredHeaders('tools/list', readJson(`{${meta}}`))).toEqual({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' });
    expect(mirroredHeaders('tools/call', readJson('{"name":"search"}'))).toEqual({});
  });
});
