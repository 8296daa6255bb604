import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { beforeEach, describe, expect, it } from 'vitest';
import { resolveKnobs } from '../../servers/kit/knobs.js';
import { Ledger, readLedger } from '../../servers/kit/ledger.js';
import { serve } from '../../servers/kit/server.js';
import { DEFAULT_LIMITS } from '../../servers/kit/wire.js';
import { scratchFolders } from '../harness/scratch.js';

// subscriptions/listen (2026-07-28, stdio), with the request loop run in-process so that the phase
// can switch between lines: a change notice goes to each listener that opted in to it, tagged with
// its id, and to no one else.

const scratch = scratchFolders('kit-subscriptions');
let ledgerPath: string;
let controlPath: string;
beforeEach(() => {
  const dir = scratch();
  ledgerPath = join(dir, 'ledger.jsonl');
  controlPath = join(dir, 'phase');
});

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const line = (message: Record<string, unknown>) => JSON.stringify({ jsonrpc: '2.0', ...message });
const listen = (id: unknown, notifications: Record<string, unknown>) => line({ id, method: 'subscriptions/listen', params: { _meta: META, notifications } });
const list = (id: number) => line({ id, method: 'tools/list', params: { _meta: META } });

/** The loop over a stream; `until(n)` waits for the n-th line the server wrote, decoded. */
function start(knobs: Record<string, string>) {
  const input = new PassThrough();
  const output = new PassThrough();
  const written: Array<Record<string, any>> = [];
  let partial = '';
  let wake = (): void => undefined;
  output.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop()!;
    written.push(...lines.map((text) => JSON.parse(text) as Record<string, any>));
    wake();
  });
  const stopped = serve({ serverId: 'test-server', knobs: resolveKnobs(knobs), ledger: new Ledger(ledgerPath), controlPath, limits: DEFAULT_LIMITS }, { input, output });
  return {
    post: (text: string) => input.write(`${text}\n`),
    until: (count: number) =>
      new Promise<Array<Record<string, any>>>((resolve) => {
        wake = () => {
          if (written.length >= count) resolve(written.slice(0, count));
        };
        wake();
      }),
    close: () => {
      input.end();
      return stopped;
    },
  };
}

describe('subscriptions/listen', () => {
  it('acknowledges what it honours, tagged with the request id, and leaves the request open', async () => {
    const server = start({ revisions: '2026-07-28' });
    server.post(listen(7, { toolsListChanged: true, promptsListChanged: false, resourceSubscriptions: ['file:///notes/1.txt'], other: true }));
    server.post(list(1));
    const out = await server.until(2);
    expect(out[0]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 7 }, notifications: { toolsListChanged: true, resourceSubscriptions: ['file:///notes/1.txt'] } },
    });
    expect(out[1]).toMatchObject({ id: 1, result: { resultType: 'complete' } });
    await server.close();
  });

  it('sends a phase switch’s notices only to the listeners that opted in to each, tagged, until one cancels', async () => {
    writeFileSync(controlPath, 'review');
    const server = start({ revisions: '2026-07-28', notify_list_changed: '1', notify_features_changed: '1' });
    server.post(listen(7, { toolsListChanged: true }));
    server.post(listen('b', { promptsListChanged: true }));
    await server.until(2);
    writeFileSync(controlPath, 'run');
    server.post(list(1));
    const switched = (await server.until(5)).slice(2);
    expect(switched.map((message) => [message.method ?? message.id, message.params?._meta?.['io.modelcontextprotocol/subscriptionId']])).toEqual([
      ['notifications/tools/list_changed', 7],
      ['notifications/prompts/list_changed', 'b'],
      [1, undefined],
    ]);
    server.post(line({ method: 'notifications/cancelled', params: { requestId: 7 } }));
    writeFileSync(controlPath, 'review');
    server.post(list(2));
    const after = (await server.until(7)).slice(5);
    expect(after.map((message) => message.method ?? message.id)).toEqual(['notifications/prompts/list_changed', 2]);
    await server.close();
    const sent = readLedger(ledgerPath).filter((record) => record.ev === 'sent').map((record) => (record as { method: string | null }).method);
    expect(sent.filter((method) => method === 'notifications/resources/list_changed')).toEqual([]);
  });

  it('is an unknown method in 2025-11-25, where the notices go to the client as before', async () => {
    writeFileSync(controlPath, 'review');
    const server = start({ revisions: '2025-11-25,2026-07-28', notify_list_changed: '1' });
    server.post(line({ id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } }));
    server.post(line({ id: 1, method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true } } }));
    await server.until(2);
    writeFileSync(controlPath, 'run');
    server.post(line({ id: 2, method: 'tools/list' }));
    const out = await server.until(4);
    expect(out[1]).toMatchObject({ id: 1, error: { code: -32601 } });
    expect(out[2]).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    await server.close();
  });
});
