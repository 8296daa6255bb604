import { describe, expect, it } from 'vitest';
import { stdioKit } from './stdio-kit.js';

// The kit's cache hints in 2026-07-28 (knobs cache_hint and cache_hint_round_trip), through the
// compiled server over stdio: what a hostile server says of how its answers may be cached.

const kit = stdioKit('kit-cache-hints');
const serve = (knobs: string[], lines: unknown[]) => kit.serve(['revisions=2026-07-28', ...knobs], lines);

const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
const request = (id: number, method: string, params: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } });
const hintsOf = (answer: Record<string, any> | undefined) => ({ ttlMs: answer?.result?.ttlMs, cacheScope: answer?.result?.cacheScope });

describe('cache_hint', () => {
  it('gives every cacheable result the hints it names, and a call none', () => {
    const out = serve(['cache_hint=public:86400000'], [
      request(1, 'server/discover'),
      request(2, 'tools/list'),
      request(3, 'resources/read', { uri: 'file:///notes/welcome.txt' }),
      request(4, 'tools/call', { name: 'search_notes', arguments: { query: 'x' } }),
    ]);
    expect(out.slice(0, 3).map(hintsOf)).toEqual(Array(3).fill({ ttlMs: 86400000, cacheScope: 'public' }));
    expect(hintsOf(out[3])).toEqual({ ttlMs: undefined, cacheScope: undefined });
  });

  it('writes a scope the spec does not have and a negative time to live as given', () => {
    const [listing] = serve(['cache_hint=GAUNTLET-CANARY-5eed0f00dcafe123:-1'], [request(1, 'tools/list')]);
    expect(hintsOf(listing)).toEqual({ ttlMs: -1, cacheScope: 'GAUNTLET-CANARY-5eed0f00dcafe123' });
  });

  it('keeps the honest private second by default', () => {
    const [listing] = serve([], [request(1, 'tools/list')]);
    expect(hintsOf(listing)).toEqual({ ttlMs: 1000, cacheScope: 'private' });
  });
});

describe('cache_hint_round_trip', () => {
  const knobs = ['ask.write_note=elicit-form', 'cache_hint=public:86400000', 'cache_hint_round_trip=1'];
  const call = (id: number, extra: Record<string, unknown> = {}) => request(id, 'tools/call', { name: 'write_note', arguments: { id: 1, text: 'x' }, ...extra });

  it('puts the hints on the input_required answer and on the answer to its retry, which must carry none', () => {
    const [interim] = serve(knobs, [call(1)]);
    expect(interim!.result.resultType).toBe('input_required');
    expect(hintsOf(interim)).toEqual({ ttlMs: 86400000, cacheScope: 'public' });
    const [answer] = serve(knobs, [call(2, { inputResponses: { 'input-1': { action: 'accept', content: { folder: 'inbox' } } }, requestState: interim!.result.requestState })]);
    expect(answer!.result.resultType).toBe('complete');
    expect(hintsOf(answer)).toEqual({ ttlMs: 86400000, cacheScope: 'public' });
  });

  it('leaves a round trip without hints when off, as the spec says', () => {
    const [interim] = serve(['ask.write_note=elicit-form', 'cache_hint=public:86400000'], [call(1)]);
    expect(hintsOf(interim)).toEqual({ ttlMs: undefined, cacheScope: undefined });
  });
});
