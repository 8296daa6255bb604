// The MCP revisions the broker negotiates, on each side: every one the official SDK still
// negotiates (agents and servers built on it ask for and answer with them), and no other. The
// front door's MCP-Protocol-Version header is in front-door.test.ts.

import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/operator/config.js';
import { ALL_GUARDS } from '../../src/guards/registry.js';
import { initializeAndList } from '../../src/load/listing.js';
import { PROTOCOL_VERSIONS, isSupportedProtocolVersion } from '../../src/session/identity.js';
import { Session } from '../../src/session/session.js';
import { CONTEXT } from './builders.js';
import { FakeRequester } from './fake-requester.js';

/** The protocol version the broker answers an agent's initialize asking for `version` with. */
function agreedWithAgent(version: string): unknown {
  const sent: string[] = [];
  const session = new Session({ tools: [], guards: ALL_GUARDS, context: CONTEXT, limits: DEFAULT_LIMITS, serverEnv: new Map(), upstream: new FakeRequester(() => '{}'), audit: undefined, send: (line) => sent.push(line) });
  session.handleLine(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'a', version: '1' } } }));
  return (JSON.parse(sent[0]!) as { result: { protocolVersion: unknown } }).result.protocolVersion;
}

/** Whether Load takes a server that answers initialize with `version`. */
async function takenFromServer(version: string): Promise<boolean> {
  const server = new FakeRequester((method) => (method === 'initialize' ? JSON.stringify({ protocolVersion: version, capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } }) : '{"tools":[]}'));
  return initializeAndList(server, 'notes', DEFAULT_LIMITS, ALL_GUARDS.listing).then(
    () => true,
    () => false,
  );
}

describe('the protocol versions', () => {
  it("are the SDK's, newest first", () => {
    expect([...PROTOCOL_VERSIONS]).toEqual(SUPPORTED_PROTOCOL_VERSIONS);
  });

  it.each(SUPPORTED_PROTOCOL_VERSIONS)('%s is agreed with an agent that asks for it, and taken from a server that answers with it', async (version) => {
    expect(isSupportedProtocolVersion(version)).toBe(true);
    expect(agreedWithAgent(version)).toBe(version);
    expect(await takenFromServer(version)).toBe(true);
  });

  it.each(['2024-01-01', '2026-01-01', '', '2025-11-25 '])('%j is not: the agent is offered the latest, and the server is refused', async (version) => {
    expect(isSupportedProtocolVersion(version)).toBe(false);
    expect(agreedWithAgent(version)).toBe(SUPPORTED_PROTOCOL_VERSIONS[0]);
    expect(await takenFromServer(version)).toBe(false);
  });
});
