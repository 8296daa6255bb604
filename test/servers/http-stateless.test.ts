// The kit over Streamable HTTP in 2026-07-28, started as the harness starts it: no session, GET
// and DELETE refused 405, the mirrored headers checked against the body (HeaderMismatch, 400) and
// recorded in the ledger, and the statuses the revision gives its errors. 2025-11-25 over HTTP is
// covered by http.test.ts.

import { request } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Ledger } from '../../harness/observe/ledger.js';
import { serverEntry } from '../../harness/paths.js';
import { HttpServer } from '../../harness/run/http-server.js';
import type { RequestRecord } from '../../servers/kit/ledger.js';
import { scratchFolders } from '../harness/scratch.js';

const scratch = scratchFolders('kit-http-stateless');
let dir: string;
let ledger: Ledger;
const servers: HttpServer[] = [];
beforeEach(() => {
  dir = scratch();
  ledger = new Ledger(join(dir, 'ledger.jsonl'));
  writeFileSync(join(dir, 'phase'), 'review\n');
});
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
});

async function start(...knobs: string[]): Promise<HttpServer> {
  const args = [serverEntry, 'notes', '--ledger', ledger.path, '--control', join(dir, 'phase'), '--http', ...knobs];
  const server = await HttpServer.start({ id: 'notes', command: process.execPath, args }, ledger, 10_000, ['127.0.0.1'], undefined);
  servers.push(server);
  return server;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(port: number, method: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/mcp', method, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const callBody = (id: number, name: string, extra: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: { query: 'x' }, _meta: META, ...extra } });
const mirrored = (method: string, name?: string) => ({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(name === undefined ? {} : { 'mcp-name': name }) });

describe('the kit over HTTP in 2026-07-28', () => {
  it('answers a POST whose headers mirror its body, with no session, and records the mirrored headers', async () => {
    const server = await start('revisions=2026-07-28');
    const answer = await send(server.port, 'POST', { ...mirrored('tools/call', 'search_notes'), 'mcp-param-region': 'us-west1' }, callBody(1, 'search_notes'));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ id: 1, result: { resultType: 'complete' } });
    expect(answer.headers['mcp-session-id']).toBeUndefined();
    const record = ledger.read().find((r): r is RequestRecord => r.ev === 'request');
    expect(record?.mcp_headers).toEqual({ 'mcp-method': 'tools/call', 'mcp-name': 'search_notes', 'mcp-param-region': 'us-west1' });
  });

  it('decodes a Base64 sentinel Mcp-Name before comparing it', async () => {
    const server = await start('revisions=2026-07-28');
    const encoded = `=?base64?${Buffer.from('search_notes').toString('base64')}?=`;
    expect((await send(server.port, 'POST', mirrored('tools/call', encoded), callBody(1, 'search_notes'))).status).toBe(200);
  });

  it('refuses 400 HeaderMismatch a POST whose headers are missing or say otherwise than its body, and never serves it', async () => {
    const server = await start('revisions=2026-07-28');
    const cases: Array<Record<string, string>> = [
      mirrored('tools/call', 'read_note'),
      mirrored('tools/list', 'search_notes'),
      mirrored('tools/call'),
      { 'mcp-method': 'tools/call', 'mcp-name': 'search_notes' },
      { ...mirrored('tools/call', 'search_notes'), 'mcp-protocol-version': '2025-11-25' },
    ];
    for (const headers of cases) {
      const answer = await send(server.port, 'POST', headers, callBody(3, 'search_notes'));
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toMatchObject({ id: 3, error: { code: -32020 } });
    }
    expect(ledger.read().filter((r) => r.ev === 'recv')).toEqual([]);
  });

  it('answers GET and DELETE 405, and a method it lacks 404 with -32601', async () => {
    const server = await start('revisions=2026-07-28');
    expect((await send(server.port, 'GET', { 'mcp-protocol-version': '2026-07-28' })).status).toBe(405);
    expect((await send(server.port, 'DELETE', {})).status).toBe(405);
    const ping = await send(server.port, 'POST', mirrored('ping'), { jsonrpc: '2.0', id: 4, method: 'ping', params: { _meta: META } });
    expect(ping.status).toBe(404);
    expect(JSON.parse(ping.body)).toMatchObject({ id: 4, error: { code: -32601 } });
  });

  it('refuses a revision it does not speak 400', async () => {
    const server = await start('revisions=2026-07-28');
    const body = { jsonrpc: '2.0', id: 5, method: 'tools/list', params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2027-01-01' } } };
    const answer = await send(server.port, 'POST', { 'mcp-protocol-version': '2027-01-01', 'mcp-method': 'tools/list' }, body);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ id: 5, error: { code: -32022 } });
  });

  it('answers ask.<tool> input_required without an event stream, and the retry once its state is back', async () => {
    const server = await start('revisions=2026-07-28', 'ask.search_notes=elicit-form');
    const first = JSON.parse((await send(server.port, 'POST', mirrored('tools/call', 'search_notes'), callBody(1, 'search_notes'))).body);
    expect(first.result.resultType).toBe('input_required');
    const retry = callBody(2, 'search_notes', { inputResponses: { 'input-1': { action: 'accept', content: { folder: 'inbox' } } }, requestState: first.result.requestState });
    const second = JSON.parse((await send(server.port, 'POST', mirrored('tools/call', 'search_notes'), retry)).body);
    expect(second).toMatchObject({ id: 2, result: { resultType: 'complete' } });
    expect(ledger.read().filter((r) => r.ev === 'reply')).toMatchObject([{ method: 'elicitation/create', request_id: 'input-1', result: { action: 'accept' } }]);
  });

  it('keeps 2025-11-25 over HTTP as it was on a server that speaks both', async () => {
    const server = await start('revisions=2025-11-25,2026-07-28');
    const init = await send(server.port, 'POST', {}, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
    expect(init.status).toBe(200);
    expect(JSON.parse(init.body).result.protocolVersion).toBe('2025-11-25');
    const ping = await send(server.port, 'POST', {}, { jsonrpc: '2.0', id: 2, method: 'ping' });
    expect(JSON.parse(ping.body)).toMatchObject({ id: 2, result: {} });
    expect(ledger.read().find((r): r is RequestRecord => r.ev === 'request')).not.toHaveProperty('mcp_headers');
  });
  it('compares each x-mcp-header argument with its Mcp-Param-* header, decoded: records match, absent or mismatch, and refuses a mismatch 400 HeaderMismatch unserved', async () => {
    const server = await start('revisions=2026-07-28', 'schema.search_notes=header-region');
    const call = (id: number, region: string) => callBody(id, 'search_notes', { arguments: { query: 'x', region } });
    const encoded = `=?base64?${Buffer.from('Hello, 世界').toString('base64')}?=`;
    expect((await send(server.port, 'POST', { ...mirrored('tools/call', 'search_notes'), 'mcp-param-region': encoded }, call(1, 'Hello, 世界'))).status).toBe(200);
    expect((await send(server.port, 'POST', mirrored('tools/call', 'search_notes'), call(2, 'us-west1'))).status).toBe(200);
    const refused = await send(server.port, 'POST', { ...mirrored('tools/call', 'search_notes'), 'mcp-param-region': 'eu-west1' }, call(3, 'us-west1'));
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body)).toMatchObject({ id: 3, error: { code: -32020 } });
    const records = ledger.read();
    expect(records.filter((r) => r.ev === 'param_headers').map((r) => (r as { headers: unknown }).headers)).toEqual([{ Region: 'match' }, { Region: 'absent' }, { Region: 'mismatch' }]);
    expect(records.filter((r) => r.ev === 'recv' && (r as { method?: string }).method === 'tools/call')).toHaveLength(2);
  });
  it('with param_headers=trusted carries out a call whose Mcp-Param-* header disagrees with the body as the header says, answering with the canary', async () => {
    const server = await start('revisions=2026-07-28', 'schema.search_notes=header-region', 'param_headers=trusted');
    const body = callBody(1, 'search_notes', { arguments: { query: 'x', region: 'us-west1' } });
    const answer = await send(server.port, 'POST', { ...mirrored('tools/call', 'search_notes'), 'mcp-param-region': 'eu-central1' }, body);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ id: 1, result: { content: [{ text: 'search_notes carried out with Region "eu-central1", as the Mcp-Param headers said, not the body: GAUNTLET-CANARY-5eed0f00dcafe123' }] } });
    const records = ledger.read();
    expect(records.find((r) => r.ev === 'param_headers')).toMatchObject({ headers: { Region: 'mismatch' } });
    expect(records.filter((r) => r.ev === 'recv' && (r as { method?: string }).method === 'tools/call')).toHaveLength(1);
    // A header agreeing with the body is served as ever.
    const agreeing = await send(server.port, 'POST', { ...mirrored('tools/call', 'search_notes'), 'mcp-param-region': 'us-west1' }, callBody(2, 'search_notes', { arguments: { query: 'x', region: 'us-west1' } }));
    expect(agreeing.body).not.toContain('GAUNTLET-CANARY');
  });
});
