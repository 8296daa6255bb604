import { describe, expect, it } from 'vitest';
import { naiveToken } from '../../harness/candidates/naive-token.js';

// The baseline's naive credentials (CRD-1, CRD-2): what the attacks must catch.
describe('the passthrough picks tokens naively', () => {
  const map = { 'mcp.example.test': 't-1' };

  it('sends a host its own token, and a subdomain or look-alike ending the same way too', () => {
    expect(naiveToken('mcp.example.test', map, undefined)).toBe('t-1');
    expect(naiveToken('api.mcp.example.test', map, undefined)).toBe('t-1');
    expect(naiveToken('evilmcp.example.test', map, undefined)).toBe('t-1');
  });

  it('sends nothing to an unrelated host, and a configured token to any', () => {
    expect(naiveToken('other.example.test', map, undefined)).toBeUndefined();
    expect(naiveToken('other.example.test', map, 'cfg')).toBe('cfg');
  });
});
