// The front door as the official SDK's Streamable HTTP client meets it: in front of a real
// Session, the client sending the front door's own origin (http://localhost:PORT) opens a session,
// lists and pings, and a later request naming an older revision the SDK still negotiates in
// MCP-Protocol-Version (as the official conformance suite's clients do) is served. Both were
// refused (403, 400) before the front door took its own origin and those revisions.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { FrontDoor } from '../../src/front-door/server.js';
import { ALL_GUARDS } from '../../src/guards/registry.js';
import { naiveFrontDoor } from '../../src/guards/front-door.js';
import { DEFAULT_LIMITS } from '../../src/operator/config.js';
import { Session } from '../../src/session/session.js';
import { CONTEXT } from './builders.js';
import { FakeRequester } from './fake-requester.js';

const closing: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

/** The front door with every guard, in front of Sessions offering no tool and a server never asked. */
async function frontDoor(): Promise<URL> {
  const door = new FrontDoor({
    listen: { host: undefined, port: 0 },
    allowedOrigins: [],
    plan: ALL_GUARDS.frontDoor.reduce((plan, guard) => guard.plan(plan), naiveFrontDoor()),
    maxBodyBytes: DEFAULT_LIMITS.maxMessageBytes,
    session: (send) => ({
      session: new Session({ tools: [], guards: ALL_GUARDS, context: CONTEXT, limits: DEFAULT_LIMITS, serverEnv: new Map(), upstream: new FakeRequester(() => '{}'), audit: undefined, send }),
      end: () => {},
    }),
  });
  const url = new URL(await door.listen());
  closing.push(() => door.close());
  return url;
}

/** The SDK's client, connected through the front door by `name`, sending its own origin. */
async function connect(url: URL, name: string) {
  const own = `http://${name}:${url.port}`;
  const transport = new StreamableHTTPClientTransport(new URL(`${own}/mcp`), { requestInit: { headers: { origin: own } } });
  const client = new Client({ name: 'sdk-agent', version: '1.0.0' });
  await client.connect(transport);
  closing.push(() => client.close());
  return { client, transport };
}

describe("the official SDK's client through the front door", () => {
  it.each(['localhost', '127.0.0.1'])('connects by %s with its own origin, lists and pings', async (name) => {
    const { client } = await connect(await frontDoor(), name);
    expect(client.getServerVersion()?.name).toBe('gauntlet-reference-broker');
    expect((await client.listTools()).tools).toEqual([]);
    expect(await client.ping()).toEqual({});
  });

  it.each(SUPPORTED_PROTOCOL_VERSIONS)('is served with MCP-Protocol-Version %s', async (version) => {
    const { client, transport } = await connect(await frontDoor(), 'localhost');
    transport.setProtocolVersion(version);
    expect(await client.ping()).toEqual({});
  });
});
