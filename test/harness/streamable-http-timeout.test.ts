// The agent's Streamable HTTP client gives up on a broker that never answers, at its timeout, even
// when a garbage collection runs while it waits. On a real loopback socket: the request must be
// Node's own fetch, which holds its signal as a broker's run does (msw's stand-in holds it more
// strongly and would hide the fault). The fault was an AbortSignal.timeout inside
// AbortSignal.any, which a collection takes before it fires on Node 20 (nodejs/node#57736).

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { StreamableHttpSession } from '../../harness/agent/streamable-http.js';
import { collectGarbage } from '../collect-garbage.js';

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
});

it('gives up on a POST the broker never answers at its timeout, after a garbage collection meanwhile', async () => {
  let arrived!: () => void;
  const received = new Promise<void>((resolve) => (arrived = resolve));
  // Never answers: the request is only seen.
  server = createServer(() => arrived());
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  const notes: string[] = [];
  const client = new StreamableHttpSession({ url, onLine: () => undefined, onNote: (note) => notes.push(note), onFailure: () => undefined, requestTimeoutMs: 300 });
  const sent = client.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
  await received;
  collectGarbage();
  await sent;
  expect(notes).toEqual(['POST tools/list failed: no answer within 300 ms']);
  await client.end();
});
