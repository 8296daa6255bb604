// A 2026-07-28 server reached over Streamable HTTP: the probe, then every POST with the headers
// that mirror its body and no session; an older HTTP server that answers the probe with an HTTP
// error is initialized as before. Against loopback listeners standing in for each.

import { afterEach, describe, expect, it } from 'vitest';
import { discover } from '../../src/load/discover.js';
import { initializeAndList } from '../../src/load/listing.js';
import { HttpConnection, type Dialling } from '../../src/upstream/http.js';
import { PerRequestUpstream } from '../../src/upstream/per-request.js';
import { capabilitiesValue } from '../../src/operator/client-capabilities.js';
import { DEFAULT_LIMITS } from '../../src/operator/config.js';
import { ALL_GUARDS } from '../../src/guards/registry.js';
import { readJson } from '../../src/json/reader.js';
import { clientFacts } from './builders.js';
import { closeListeners, listen } from './loopback-http.js';

afterEach(closeListeners);

const PLAN = { followRedirects: false, maxBodyBytes: 1 << 20, bearer: undefined };
const ANYWHERE: Dialling = { refuse: () => null };
const NO_FACTS = clientFacts();

describe('a 2026-07-28 server over HTTP', () => {
  it('is probed, then spoken to per request: each POST with its version, method and name in headers, and no session', async () => {
    const seen: Array<{ headers: Record<string, unknown>; body: any }> = [];
    const url = await listen((request, body, response) => {
      const message = JSON.parse(body);
      seen.push({ headers: request.headers, body: message });
      const result = message.method === 'server/discover' ? { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, ttlMs: 0, cacheScope: 'public' } : { resultType: 'complete', tools: [{ name: 'search', inputSchema: { type: 'object' } }], ttlMs: 0, cacheScope: 'public' };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    });
    const http = new HttpConnection('notes', url, PLAN, ANYWHERE);
    const discovered = await discover(http, 'notes', NO_FACTS, 1000);
    expect(discovered).toEqual({ instructions: undefined, logging: false });
    const spoken = new PerRequestUpstream(http, capabilitiesValue(NO_FACTS), readJson('{"name":"b","version":"1"}'));
    const listing = await initializeAndList(spoken, 'notes', DEFAULT_LIMITS, ALL_GUARDS.listing, NO_FACTS, { discovered });
    expect(listing.tools.map((tool) => tool.name)).toEqual(['search']);
    await spoken.request('tools/call', readJson('{"name":"search","arguments":{}}'), 1000, 'call');
    expect(seen.map(({ body }) => body.method)).toEqual(['server/discover', 'tools/list', 'tools/call']);
    for (const { headers, body } of seen) {
      expect(headers['mcp-protocol-version']).toBe('2026-07-28');
      expect(headers['mcp-method']).toBe(body.method);
      expect(headers['mcp-session-id']).toBeUndefined();
    }
    expect(seen[2]!.headers['mcp-name']).toBe('search');
    await http.close();
  });

  it('is an older server when it answers the probe with an HTTP error, and is then initialized', async () => {
    const methods: string[] = [];
    const url = await listen((request, body, response) => {
      // The stream outside any call an initialized broker opens: none here.
      if (request.method === 'GET') return void response.writeHead(405).end();
      const message = JSON.parse(body);
      methods.push(message.method);
      if (message.method === 'server/discover') return void response.writeHead(400, { 'content-type': 'text/plain' }).end('Bad Request: Server not initialized');
      if (message.id === undefined) return void response.writeHead(202).end();
      const result = message.method === 'initialize' ? { protocolVersion: '2025-11-25', capabilities: {} } : { tools: [] };
      response.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 's1' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    });
    const http = new HttpConnection('notes', url, PLAN, ANYWHERE);
    expect(await discover(http, 'notes', NO_FACTS, 1000)).toBeUndefined();
    await initializeAndList(http, 'notes', DEFAULT_LIMITS, ALL_GUARDS.listing, NO_FACTS);
    expect(methods.slice(0, 2)).toEqual(['server/discover', 'initialize']);
    await http.close();
  });
});
