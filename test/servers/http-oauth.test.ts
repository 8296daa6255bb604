// The kit's `http_oauth` knob, started as the harness starts it: every MCP request without a
// credential refused 401 naming the protected-resource metadata, the metadata (RFC 9728, RFC 8414)
// naming an authorization URL of each mode's making, registration and token endpoints that sign
// nobody in; and the knob refused over stdio. Needs `tsc -b` to have emitted dist/.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Ledger } from '../../harness/observe/ledger.js';
import { serverEntry } from '../../harness/paths.js';
import { HttpServer } from '../../harness/run/http-server.js';
import { KnobError, refuseUnlistened, resolveKnobs } from '../../servers/kit/knobs.js';
import { authorizationEndpoint, PAYLOAD } from '../../servers/kit/oauth.js';

let dir: string;
let ledger: Ledger;
const servers: HttpServer[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kit-oauth-'));
  ledger = new Ledger(join(dir, 'ledger.jsonl'));
  writeFileSync(join(dir, 'phase'), 'run\n');
});
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function start(mode: string): Promise<URL> {
  const args = [serverEntry, 'notes', '--ledger', ledger.path, '--control', join(dir, 'phase'), `http_oauth=${mode}`];
  const server = await HttpServer.start({ id: 'notes', command: process.execPath, args }, ledger, 10_000, ['127.0.0.1'], undefined);
  servers.push(server);
  return new URL(`http://127.0.0.1:${server.port}/mcp`);
}

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } };

describe('the kit with http_oauth', () => {
  it('refuses an uncredentialed MCP request with 401 pointing at its metadata, which names the sign-in', async () => {
    const url = await start('userinfo');
    const refused = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(initialize) });
    expect(refused.status).toBe(401);
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(refused.headers.get('www-authenticate') ?? '')?.[1];
    expect(metadataUrl).toBe(`${url.origin}/.well-known/oauth-protected-resource/mcp`);
    const resource = (await (await fetch(metadataUrl!)).json()) as { resource: string; authorization_servers: string[] };
    expect(resource).toMatchObject({ resource: url.href, authorization_servers: [url.origin] });
    const server = (await (await fetch(`${url.origin}/.well-known/oauth-authorization-server`)).json()) as Record<string, string>;
    expect(server['authorization_endpoint']).toBe(`http://${PAYLOAD}@${url.host}/authorize`);
    expect(server['registration_endpoint']).toBe(`${url.origin}/register`);
    const registered = await fetch(server['registration_endpoint']!, { method: 'POST', body: '{}' });
    expect(registered.status).toBe(201);
    expect(((await registered.json()) as { client_id: string }).client_id).toBe('gauntlet-client');
    expect((await fetch(server['token_endpoint']!, { method: 'POST', body: 'grant_type=authorization_code' })).status).toBe(400);
    // The server itself never served MCP: nothing reached serve().
    expect(ledger.read().filter((record) => record.ev === 'recv')).toEqual([]);
  });

  it('names an https page of its own in honest mode, the payload elsewhere in the others', () => {
    const origin = new URL('https://127.0.0.1:4443');
    expect(authorizationEndpoint('honest', origin)).toBe('https://127.0.0.1:4443/authorize');
    expect(new URL(authorizationEndpoint('userinfo', origin)).username).toBe(PAYLOAD);
    expect(decodeURIComponent(new URL(authorizationEndpoint('path', origin)).pathname)).toContain(PAYLOAD);
    expect(authorizationEndpoint('scheme', origin)).toBe(`gauntlet-app:${PAYLOAD}`);
    // The payload survives the URL parser in the user-info and as an opaque path: it has no space and no slash.
    expect(new URL(authorizationEndpoint('scheme', origin)).href).toContain(PAYLOAD);
  });

  it('is refused over stdio', () => {
    expect(() => refuseUnlistened(resolveKnobs({ http_oauth: 'honest' }), null)).toThrow(KnobError);
    expect(() => resolveKnobs({ http_oauth: 'sideways' })).toThrow(KnobError);
  });

  it('puts the registration and token endpoints on another address only where the server listens on it', async () => {
    expect(() => refuseUnlistened(resolveKnobs({ http_oauth: 'honest', oauth_endpoints_at: '169.254.169.254' }), ['10.0.0.5'])).toThrow(KnobError);
    expect(() => refuseUnlistened(resolveKnobs({ oauth_endpoints_at: '169.254.169.254' }), ['169.254.169.254'])).toThrow(KnobError);
    expect(() => refuseUnlistened(resolveKnobs({ http_oauth: 'honest', oauth_endpoints_at: '169.254.169.254' }), ['10.0.0.5', '169.254.169.254'])).not.toThrow();
    expect(() => resolveKnobs({ oauth_endpoints_at: 'metadata.internal' })).toThrow(KnobError);
  });
});
