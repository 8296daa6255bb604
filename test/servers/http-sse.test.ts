// The kit's `http_sse` knob, started as the harness starts it: each POST of a request answered on
// an event stream (a priming event, what the server sends of its own while the request is
// pending, then the answer); a request of the server's own on a call's stream answered with one
// more POST, owed only 202; `endless` log lines and never the answer; and the knob refused where
// it cannot act. Needs `tsc -b` to have emitted dist/.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Ledger } from '../../harness/observe/ledger.js';
import { serverEntry } from '../../harness/paths.js';
import { HttpServer } from '../../harness/run/http-server.js';
import { KnobError, refuseUnlistened, resolveKnobs } from '../../servers/kit/knobs.js';

let dir: string;
let ledger: Ledger;
const servers: HttpServer[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kit-sse-'));
  ledger = new Ledger(join(dir, 'ledger.jsonl'));
  writeFileSync(join(dir, 'phase'), 'run\n');
});
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function start(catalogue: string, ...knobs: string[]): Promise<URL> {
  const args = [serverEntry, catalogue, '--ledger', ledger.path, '--control', join(dir, 'phase'), ...knobs];
  const server = await HttpServer.start({ id: catalogue, command: process.execPath, args }, ledger, 10_000, ['127.0.0.1'], undefined);
  servers.push(server);
  return new URL(`http://127.0.0.1:${server.port}/mcp`);
}

const post = (url: URL, body: unknown, signal?: AbortSignal) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(body), signal });

/** Each event's data, in order, of a stream the server ended. */
async function events(response: Response): Promise<string[]> {
  return (await response.text()).split('\n\n').filter((block) => block !== '').map((block) => block.split('\n').filter((field) => field.startsWith('data:')).map((field) => field.slice(6)).join('\n'));
}

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { sampling: {} }, clientInfo: { name: 't', version: '1' } } };
const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_notes', arguments: { query: 'budget' } } };

describe('the kit with http_sse', () => {
  it('answers each request on an event stream: a priming event, the log line sent while the call is handled, then the answer', async () => {
    const url = await start('notifier', 'http_sse=answer', 'notify.search_notes=log');
    const opened = await post(url, initialize);
    expect(opened.headers.get('content-type')).toBe('text/event-stream');
    const [priming, answer] = await events(opened);
    expect(priming).toBe('');
    expect(JSON.parse(answer!)).toMatchObject({ id: 1, result: { serverInfo: {} } });
    expect((await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);

    const called = await events(await post(url, call));
    expect(called.map((data) => (data === '' ? 'priming' : ((JSON.parse(data) as { method?: string }).method ?? 'answer')))).toEqual(['priming', 'notifications/message', 'answer']);
    expect(JSON.parse(called[2]!)).toMatchObject({ id: 2, result: { content: [{ type: 'text' }] } });
  });

  it("sends a request of its own on the call's stream, takes the client's reply as one more POST (202), then answers", async () => {
    const url = await start('sampler', 'http_sse=answer', 'ask.search_notes=sampling-max-tokens');
    await (await post(url, initialize)).text();
    const opened = await post(url, call);
    const reader = opened.body!.getReader();
    let text = '';
    while (!text.includes('sampling/createMessage')) text += new TextDecoder().decode((await reader.read()).value);
    const asked = JSON.parse(text.split('\n').find((field) => field.includes('sampling/createMessage'))!.slice(6)) as { id: string };
    const replied = await post(url, { jsonrpc: '2.0', id: asked.id, result: { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'm' } });
    expect(replied.status).toBe(202);
    for (let read = await reader.read(); !read.done; read = await reader.read()) text += new TextDecoder().decode(read.value);
    expect(text).toContain('"id":2,"result"');
    expect(ledger.read().filter((record) => record.ev === 'reply')).toHaveLength(1);
  });

  it('with endless, answers a call with log lines for as long as the client reads, and never the answer', async () => {
    const url = await start('notes', 'http_sse=endless');
    await (await post(url, initialize)).text();
    const stop = new AbortController();
    const reader = (await post(url, call, stop.signal)).body!.getReader();
    let text = '';
    while (text.length < 256 * 1024) text += new TextDecoder().decode((await reader.read()).value);
    stop.abort();
    expect(text).not.toContain('"id":2');
    expect(text.split('\n\n').filter((block) => block.includes('still working')).length).toBeGreaterThan(1000);
    expect(ledger.read().filter((record) => record.ev === 'recv')).toHaveLength(2);
  });

  it('is refused over stdio and with http_oversize, and lets ask and notify be served over HTTP', () => {
    const knobs = (assigned: Record<string, string>) => resolveKnobs(assigned);
    expect(() => refuseUnlistened(knobs({ http_sse: 'answer' }), null)).toThrow(KnobError);
    expect(() => knobs({ http_sse: 'answer', http_oversize: 'streamed' })).toThrow(/cannot be combined/);
    expect(() => refuseUnlistened(knobs({ 'notify.search_notes': 'log' }), ['127.0.0.1'])).toThrow(/with http_sse/);
    expect(() => refuseUnlistened(knobs({ http_sse: 'answer', 'notify.search_notes': 'log' }), ['127.0.0.1'])).not.toThrow();
  });
});
