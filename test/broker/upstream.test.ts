// The server connection against a real process: framing and decoding failures end it, an answer
// past a reader limit fails only its request, close() stops the whole group and is safe twice and
// during a call.

import { afterEach, describe, expect, it } from 'vitest';
import { ALL_GUARDS } from '../../src/guards/registry.js';
import { plain } from '../../src/json/tree.js';
import { ResultOverLimit } from '../../src/errors.js';
import { Connection } from '../../src/upstream/connection.js';
import { ServerProcess } from '../../src/upstream/process.js';
import { FIXTURE, Workdir, isAlive, toolsText, waitDead, within } from './e2e-helpers.js';
import type { ServerSpec } from '../../src/types.js';

let work: Workdir;
afterEach(async () => {
  await work.cleanup();
});

async function connect(spec: Parameters<Workdir['spec']>[0]): Promise<{ connection: Connection; server: ServerProcess }> {
  work = new Workdir();
  work.spec(spec);
  const serverSpec: ServerSpec = { id: 'notes', command: process.execPath, args: [FIXTURE, work.path('spec.json')], env: new Map(), prefix: undefined, sourceVersion: undefined };
  const server = await ServerProcess.start(serverSpec, ALL_GUARDS.process);
  return { connection: new Connection('notes', server), server };
}

const INIT = plain({ protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } });

describe('Connection', () => {
  it('close() is safe twice and while a call is in flight, and stops the whole group', async () => {
    const { connection, server } = await connect({ pages: [toolsText([{ name: 'hang' }])], grandchild: true });
    expect((await connection.request('initialize', INIT, 5000, 'initialize')).ok).toBe(true);
    const call = connection.request('tools/call', plain({ name: 'hang', arguments: {} }), 60_000, 'tools/call "hang"');
    const grandchild = work.grandchildPid();
    expect(isAlive(grandchild)).toBe(true);
    const refused = expect(call).rejects.toThrow('server "notes" was closed by the broker');
    await Promise.all([connection.close(), connection.close()]);
    await refused;
    await connection.close();
    expect(await waitDead(grandchild)).toBe(true);
    expect(isAlive(server.pid)).toBe(false);
    await expect(connection.request('ping', undefined, 1000, 'ping')).rejects.toThrow('server "notes" was closed by the broker');
  });

  it.each([
    ['not json at all', 'not valid JSON'],
    ['{"jsonrpc":"2.0","id":{id},"result":{"tools":[]},"result":{"tools":[]}}', 'duplicate key "result"'],
    ['[{"jsonrpc":"2.0","id":{id},"result":{"tools":[]}}]', 'not a JSON-RPC object'],
    ['{"jsonrpc":"2.0","id":{id},"result":{},"error":{"code":1,"message":"x"}}', 'exactly one of result and error'],
  ])('a malformed line (%s) ends the session and stops the server', async (line, problem) => {
    const { connection, server } = await connect({ listLine: line });
    expect((await connection.request('initialize', INIT, 5000, 'initialize')).ok).toBe(true);
    await expect(connection.request('tools/list', plain({}), 5000, 'tools/list')).rejects.toThrow(problem);
    await within(server.exited, 10_000, 'the server to be stopped');
  });

  it.each([
    ['nested past the depth bound', `{"jsonrpc":"2.0","id":{id},"result":${'{"a":'.repeat(70)}{}${'}'.repeat(70)}}`],
    ['with its id last', `{"jsonrpc":"2.0","result":${'['.repeat(70)}${']'.repeat(70)},"id":{id}}`],
  ])('an answer past a reader limit (%s) fails that request alone and the session goes on', async (_, line) => {
    const { connection, server } = await connect({ listLine: line });
    expect((await connection.request('initialize', INIT, 5000, 'initialize')).ok).toBe(true);
    const refused = connection.request('tools/list', plain({}), 5000, 'tools/list');
    await expect(refused).rejects.toBeInstanceOf(ResultOverLimit);
    await expect(refused).rejects.toThrow('nesting deeper than 64');
    expect((await connection.request('initialize', INIT, 5000, 'initialize')).ok).toBe(true);
    expect(isAlive(server.pid)).toBe(true);
    await connection.close();
  });

  it('an answer past a reader limit that names no pending request ends the session', async () => {
    const { connection, server } = await connect({ listLine: `{"jsonrpc":"2.0","id":999,"result":${'['.repeat(70)}${']'.repeat(70)}}` });
    expect((await connection.request('initialize', INIT, 5000, 'initialize')).ok).toBe(true);
    await expect(connection.request('tools/list', plain({}), 5000, 'tools/list')).rejects.toThrow('nesting deeper than 64');
    await within(server.exited, 10_000, 'the server to be stopped');
  });
});
