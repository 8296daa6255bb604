// Which MCP revisions each built-in candidate serves an agent: the passthrough (which relays
// lines), the reference and supergateway (which relays messages unread: test/harness/brokers.test.ts
// runs a 2026-07-28 control through it) both, every other real broker's adapter 2025-11-25 alone
// (their SDKs predate 2026-07-28), and a case of a revision not served is named for it.

import { describe, expect, it } from 'vitest';
import { loadCandidate } from '../../harness/candidates/registry.js';
import { servedRevisions, unservedRevision } from '../../harness/candidates/served-revisions.js';

describe('the revisions a candidate serves', () => {
  it.each([
    ['passthrough', ['2025-11-25', '2026-07-28']],
    ['plain-proxy', ['2025-11-25', '2026-07-28']],
    ['reference', ['2025-11-25', '2026-07-28']],
    ['mcp-proxy', ['2025-11-25']],
    ['supergateway', ['2025-11-25', '2026-07-28']],
    ['mcp-hub', ['2025-11-25']],
    ['mcp-remote', ['2025-11-25']],
    ['civic-passthrough', ['2025-11-25']],
  ])('%s serves %j', async (name, revisions) => {
    const candidate = await loadCandidate(name);
    try {
      expect(servedRevisions(candidate.info)).toEqual(revisions);
    } finally {
      await candidate.dispose?.();
    }
  });

  it('names the revision a case speaks and the ones the adapter declares, and nothing for one it serves', () => {
    const info = { name: 'x', version: '1', adapterProtocol: 'gauntlet-candidate/2', claims: [] } as const;
    expect(unservedRevision(info, '2025-11-25')).toBeUndefined();
    expect(unservedRevision(info, '2026-07-28')).toBe("the case speaks MCP 2026-07-28, and the candidate's adapter declares it serves 2025-11-25");
    expect(unservedRevision({ ...info, revisions: ['2025-11-25', '2026-07-28'] }, '2026-07-28')).toBeUndefined();
  });
});
