import { parse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { hintsOf, type ReceivedHints } from '../../harness/agent/cache-hints.js';
import cacheHints from '../../harness/expect/scenario/cache-hints.js';
import type { Finding, ScenarioFacts } from '../../harness/expect/types.js';

/** The findings of `cache_hints: { max_ttl_ms: max }` over what the agent received. */
function judge(received: ReceivedHints[], max = 60_000): Pick<Finding, 'check' | 'observed'>[] {
  const findings: Pick<Finding, 'check' | 'observed'>[] = [];
  const facts = { label: 'end', calls: [], canary: { requests: 0, records: [] }, cacheHints: received } as ScenarioFacts;
  cacheHints.judge({ cache_hints: { max_ttl_ms: max } }, facts, { records: [], kind: 'attack', spec: {} as never }, (check, _expectation, _expected, observed) => findings.push({ check, observed }));
  return findings;
}

const result = (text: string) => parse(text) as Record<string, unknown>;

describe('hintsOf', () => {
  it('reads the hints as written, a time to live past 2^53 digit for digit', () => {
    expect(hintsOf('tools/list', {}, result('{"resultType":"complete","ttlMs":9007199254740993,"cacheScope":"public"}'))).toEqual({
      method: 'tools/list',
      interim: false,
      retry: false,
      ttlMs: '9007199254740993',
      cacheScope: 'public',
    });
  });

  it('tells an interim result and a retry, and a result with no hints', () => {
    expect(hintsOf('tools/call', { requestState: 's' }, result('{"resultType":"input_required","ttlMs":"5"}'))).toEqual({ method: 'tools/call', interim: true, retry: true, ttlMs: '"5"' });
    expect(hintsOf('tools/call', {}, result('{}'))).toEqual({ method: 'tools/call', interim: false, retry: false });
  });
});

describe('cache_hints', () => {
  const listing = (extra: Partial<ReceivedHints>): ReceivedHints => ({ method: 'tools/list', interim: false, retry: false, ...extra });

  it('takes private hints within the bound, and results with none', () => {
    expect(judge([listing({ ttlMs: '0', cacheScope: 'private' }), listing({ ttlMs: '60000' }), listing({}), { method: 'tools/call', interim: false, retry: false }])).toEqual([]);
  });

  it('finds a public scope, and a scope the spec does not have as it came', () => {
    expect(judge([listing({ cacheScope: 'public' }), listing({ cacheScope: 'GAUNTLET-CANARY-x' })])).toEqual([
      { check: 'cache_hints.scope', observed: 'public' },
      { check: 'cache_hints.scope', observed: 'GAUNTLET-CANARY-x' },
    ]);
  });

  it('finds a time to live past the bound, past 2^53, negative, or not an integer', () => {
    const ttls = ['60001', '9007199254740993', '-1', '1.5', '"5"'];
    expect(judge(ttls.map((ttlMs) => listing({ ttlMs })))).toEqual(ttls.map((observed) => ({ check: 'cache_hints.ttl', observed })));
  });

  it('allows no freshness at all on an interim result, a retry, or a method that is not cacheable', () => {
    const fresh = { ttlMs: '1000', cacheScope: 'private' };
    expect(judge([listing({ ...fresh, interim: true }), listing({ ...fresh, retry: true }), { method: 'tools/call', interim: false, retry: false, ...fresh }]).map((f) => f.check)).toEqual(Array(3).fill('cache_hints.ttl'));
    expect(judge([{ method: 'tools/call', interim: true, retry: false, ttlMs: '0', cacheScope: 'private' }])).toEqual([]);
  });
});
