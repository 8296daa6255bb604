import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { serverEntry } from '../../harness/paths.js';
import { type Message, stdioKit } from './stdio-kit.js';

// Knob `revisions`: which MCP revisions a kit server speaks, through the compiled server over
// stdio: server/discover, the per-request revision in `_meta`, the refusals, and what a
// 2026-07-28 result carries.

const { serve, records } = stdioKit('kit-revisions');

const BOTH = 'revisions=2025-11-25,2026-07-28';
const MODERN = 'revisions=2026-07-28';

/** The `_meta` of a 2026-07-28 request. */
const meta = (extra: Record<string, unknown> = {}, version = '2026-07-28') => ({
  'io.modelcontextprotocol/protocolVersion': version,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1' },
  ...extra,
});
const request = (id: number, method: string, params: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method, params });
const modern = (id: number, method: string, params: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
  request(id, method, { ...params, _meta: meta(extra) });
const initialize = (id = 0) => request(id, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } });

describe('knob revisions', () => {
  it('refuses a revision the kit does not know, or one named twice', () => {
    for (const value of ['2024-11-05', '2026-07-28,2026-07-28', '']) {
      const run = spawnSync(process.execPath, [serverEntry, 'notes', `revisions=${value}`], { input: '', timeout: 20_000 });
      expect(run.status).toBe(2);
    }
  });

  it('by default speaks 2025-11-25 only, reading no _meta: server/discover is an unknown method, a call is answered as before', () => {
    const [discover, call] = serve([], [modern(1, 'server/discover'), modern(2, 'tools/call', { name: 'read_note', arguments: { id: 1 } })]);
    expect(discover).toMatchObject({ id: 1, error: { code: -32601 } });
    expect(call!.result).not.toHaveProperty('resultType');
  });

  it('answers server/discover with the revisions it speaks, newest first, and what initialize says of the server', () => {
    const knobs = [BOTH, 'instructions=plain', 'run.server_name=other'];
    const [discover] = serve(knobs, [modern(1, 'server/discover')]);
    const [init] = serve(knobs, [initialize()]);
    expect(discover!.result).toMatchObject({
      resultType: 'complete',
      supportedVersions: ['2026-07-28', '2025-11-25'],
      capabilities: init!.result.capabilities,
      instructions: init!.result.instructions,
      _meta: { 'io.modelcontextprotocol/serverInfo': init!.result.serverInfo },
      ttlMs: 1000,
      cacheScope: 'private',
    });
  });

  it('still answers initialize when it speaks 2025-11-25 too, and a request without _meta in 2025-11-25', () => {
    const [init, list] = serve([BOTH], [initialize(), request(1, 'tools/list')]);
    expect(init!.result.protocolVersion).toBe('2025-11-25');
    expect(list!.result).not.toHaveProperty('resultType');
  });

  it('refuses a revision it does not speak with UnsupportedProtocolVersion, listing what it supports', () => {
    const [future, legacyNamed] = serve([BOTH], [request(1, 'tools/list', { _meta: meta({}, '2027-01-01') }), request(2, 'tools/list', { _meta: meta({}, '2025-06-18') })]);
    expect(future).toMatchObject({ id: 1, error: { code: -32022, data: { supported: ['2026-07-28', '2025-11-25'], requested: '2027-01-01' } } });
    expect(legacyNamed).toMatchObject({ id: 2, error: { code: -32022, data: { requested: '2025-06-18' } } });
  });

  it('without 2025-11-25 refuses initialize and a request naming no revision', () => {
    const [init, bare, discover] = serve([MODERN], [initialize(), request(1, 'tools/list'), modern(2, 'server/discover')]);
    expect(init).toMatchObject({ id: 0, error: { code: -32022, data: { supported: ['2026-07-28'], requested: '2025-11-25' } } });
    expect(bare).toMatchObject({ id: 1, error: { code: -32022, data: { supported: ['2026-07-28'] } } });
    expect(bare!.error.data).not.toHaveProperty('requested');
    expect(discover!.result.supportedVersions).toEqual(['2026-07-28']);
  });

  it('without 2026-07-28 answers server/discover -32601 whatever it names', () => {
    const [discover] = serve(['revisions=2025-11-25'], [modern(1, 'server/discover')]);
    expect(discover).toMatchObject({ id: 1, error: { code: -32601 } });
  });

  it('lists a needs.<tool> tool only to a 2026-07-28 request whose own _meta declares the capability', () => {
    const names = (message: Message) => (message.result.tools as { name: string }[]).map((tool) => tool.name);
    const lines = [
      modern(1, 'tools/list', {}, { 'io.modelcontextprotocol/clientCapabilities': { sampling: {} } }),
      modern(2, 'tools/list'),
    ];
    const [declared, undeclared] = serve([BOTH, 'needs.search_notes=sampling'], lines);
    expect(names(declared!)).toContain('search_notes');
    // Servers MUST NOT infer capabilities from prior requests.
    expect(names(undeclared!)).not.toContain('search_notes');
  });

  it('records every line in the ledger as before', () => {
    serve([MODERN], [modern(1, 'server/discover')]);
    const recorded = records();
    expect(recorded.find((record) => record.ev === 'recv')).toMatchObject({ method: 'server/discover', id: '1' });
    expect(recorded.find((record) => record.ev === 'sent')).toMatchObject({ in_reply_to: '1', method: null });
  });
});

describe('2026-07-28 results', () => {
  it('carry resultType complete, and the cache hints where the revision makes a result cacheable', () => {
    const lines = [
      modern(1, 'tools/list'),
      modern(2, 'prompts/list'),
      modern(3, 'resources/list'),
      modern(4, 'resources/templates/list'),
      modern(5, 'resources/read', { uri: 'file:///notes/1.txt' }),
      modern(6, 'tools/call', { name: 'read_note', arguments: { id: 1 } }),
      modern(7, 'prompts/get', { name: 'summarise_notes' }),
      modern(8, 'completion/complete', { ref: { type: 'ref/prompt', name: 'summarise_notes' }, argument: { name: 'topic', value: 'g' } }),
    ];
    const answers = serve([MODERN], lines);
    expect(answers.map((answer) => answer.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    for (const answer of answers) expect(answer.result.resultType).toBe('complete');
    for (const answer of answers.slice(0, 5)) expect(answer.result).toMatchObject({ ttlMs: 1000, cacheScope: 'private' });
    for (const answer of answers.slice(5)) expect(answer.result).not.toHaveProperty('ttlMs');
    // The rest of the result is its 2025-11-25 text.
    const [, legacyList] = serve([BOTH], [initialize(), request(1, 'tools/list')]);
    const { resultType, ttlMs, cacheScope, ...listing } = answers[0]!.result;
    expect(listing).toEqual(legacyList!.result);
  });

  it('keep a result written in pieces in pieces, resultType first', () => {
    const [answer] = serve([MODERN, 'result.read_note=bytes-200000'], [modern(1, 'tools/call', { name: 'read_note', arguments: {} })]);
    expect(answer!.result.resultType).toBe('complete');
    const sent = records().find((record) => record.ev === 'sent');
    expect(sent).toMatchObject({ bytes: expect.any(Number) });
    expect((sent as { raw: string }).raw.startsWith('{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete",')).toBe(true);
  });

  it('answer the methods 2026-07-28 removes -32601, which 2025-11-25 still answers', () => {
    const removed = ['ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe'];
    const params = { level: 'info', uri: 'file:///notes/1.txt' };
    const answers = serve([BOTH], removed.map((method, i) => modern(i + 1, method, params)));
    for (const answer of answers) expect(answer.error.code).toBe(-32601);
    const legacy = serve([BOTH], [initialize(), ...removed.map((method, i) => request(i + 1, method, params))]);
    for (const answer of legacy.slice(1)) expect(answer.result).toEqual({});
  });
});

describe('2026-07-28 log messages', () => {
  const call = (id: number, extra: Record<string, unknown> = {}) => modern(id, 'tools/call', { name: 'search_notes', arguments: { query: 'x' } }, extra);
  const logs = (out: Message[]) => out.filter((message) => message.method === 'notifications/message').map((message) => message.params.level as string);

  it('go out only for a request that asks for a level, at or above it; progress goes out regardless', () => {
    expect(logs(serve([MODERN, 'notify.search_notes=log'], [call(1)]))).toEqual([]);
    expect(logs(serve([MODERN, 'notify.search_notes=log'], [call(1, { 'io.modelcontextprotocol/logLevel': 'info' })]))).toEqual(['info']);
    expect(logs(serve([MODERN, 'notify.search_notes=log'], [call(1, { 'io.modelcontextprotocol/logLevel': 'debug' })]))).toEqual(['info']);
    expect(logs(serve([MODERN, 'notify.search_notes=log'], [call(1, { 'io.modelcontextprotocol/logLevel': 'warning' })]))).toEqual([]);
    expect(logs(serve([MODERN, 'notify.search_notes=log-control'], [call(1, { 'io.modelcontextprotocol/logLevel': 'warning' })]))).toEqual(['warning']);
    const progress = serve([MODERN, 'notify.search_notes=progress'], [call(1, { progressToken: 'tok-1' })]);
    expect(progress.map((message) => message.method ?? message.id)).toEqual(['notifications/progress', 1]);
  });

  it('a rendezvous sends its arrival log line only on request too, and its held answers carry resultType', () => {
    const out = serve([MODERN, 'rendezvous.search_notes=2'], [call(1), call(2, { 'io.modelcontextprotocol/logLevel': 'info' })]);
    expect(logs(out)).toEqual(['info']);
    const answers = out.filter((message) => message.id !== undefined);
    expect(answers.map((answer) => [answer.id, answer.result.resultType])).toEqual([[1, 'complete'], [2, 'complete']]);
  });

  it('are sent in 2025-11-25 as before, whatever the request says', () => {
    expect(logs(serve([BOTH, 'notify.search_notes=log'], [initialize(), request(1, 'tools/call', { name: 'search_notes', arguments: {} })]))).toEqual(['info']);
  });

  it('refuses a request naming no log level -32602', () => {
    const [answer] = serve([MODERN, 'notify.search_notes=log'], [call(1, { 'io.modelcontextprotocol/logLevel': 'loud' })]);
    expect(answer).toMatchObject({ id: 1, error: { code: -32602 } });
  });
});
