import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serverEntry } from '../../harness/paths.js';
import { readLedger } from '../../servers/kit/ledger.js';

// ask.<tool> and notify.<tool>, through the compiled server over stdio: what a call of the tool
// makes the server send of its own accord, the order of it, and the replies the ledger keeps.

let dir: string;
let ledgerPath: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kit-initiated-'));
  ledgerPath = join(dir, 'ledger.jsonl');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const call = (meta?: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_notes', arguments: { query: 'x' }, ...(meta ? { _meta: meta } : {}) } });

/** Runs the server over these input lines; its output lines, decoded. */
function serve(knobs: string[], lines: string[], extra: string[] = []): { status: number | null; out: Array<Record<string, unknown>> } {
  const run = spawnSync(process.execPath, [serverEntry, 'notes', '--ledger', ledgerPath, ...extra, ...knobs], { input: lines.map((line) => `${line}\n`).join(''), timeout: 20_000 });
  const out = run.stdout.toString('utf8').split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>);
  return { status: run.status, out };
}

describe('ask.<tool>', () => {
  it('sends its request while handling the call, answers the call only after the reply, and records the reply', () => {
    const reply = JSON.stringify({ jsonrpc: '2.0', id: 'srv-1', result: { roots: [{ uri: 'file:///work' }] } });
    const { out } = serve(['ask.search_notes=roots'], [call(), reply]);
    expect(out.map((message) => message.method ?? `answer ${String(message.id)}`)).toEqual(['roots/list', 'answer 1']);
    expect(out[0]!.id).toBe('srv-1');
    const replies = readLedger(ledgerPath).filter((record) => record.ev === 'reply');
    expect(replies).toMatchObject([{ method: 'roots/list', request_id: '"srv-1"', result: { roots: [{ uri: 'file:///work' }] }, error: null }]);
  });

  it('holds the call while a reply is missing', () => {
    const { out } = serve(['ask.search_notes=sampling-many'], [call()]);
    expect(out.filter((message) => message.method === 'sampling/createMessage')).toHaveLength(20);
    expect(out.some((message) => message.id === 1)).toBe(false);
  });

  it('is refused over HTTP, where the kit keeps no stream to the client', () => {
    expect(serve(['ask.search_notes=roots'], [], ['--http']).status).toBe(2);
  });
});

describe('notify.<tool>', () => {
  it('reports progress for the token the call carried, before the answer', () => {
    const { out } = serve(['notify.search_notes=progress'], [call({ progressToken: 'tok-7' })]);
    expect(out[0]).toMatchObject({ method: 'notifications/progress', params: { progressToken: 'tok-7' } });
    expect(out[1]).toMatchObject({ id: 1 });
  });

  it('sends a flood of the preset’s size', () => {
    const { out } = serve(['notify.search_notes=log-flood'], [call()]);
    expect(out.filter((message) => message.method === 'notifications/message')).toHaveLength(200);
  });
});

describe('needs.<tool>', () => {
  const initialize = (capabilities: Record<string, unknown>) => JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities } });
  const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  const listed = (knobs: string[], lines: string[]) =>
    (serve(knobs, lines).out.find((message) => message.id === 1)!.result as { tools: { name: string }[] }).tools.map((tool) => tool.name);

  it('lists the tool only to a client whose initialize declared the capability, as an object', () => {
    const knobs = ['needs.search_notes=sampling'];
    expect(listed(knobs, [initialize({ sampling: {} }), list])).toEqual(['search_notes', 'read_note', 'write_note']);
    expect(listed(knobs, [initialize({ roots: {}, elicitation: {} }), list])).toEqual(['read_note', 'write_note']);
    expect(listed(knobs, [initialize({ sampling: true }), list])).toEqual(['read_note', 'write_note']);
    // Listed before any initialize, no capability is declared.
    expect(listed(knobs, [list])).toEqual(['read_note', 'write_note']);
  });

  it('refuses a capability MCP does not name for a client', () => {
    expect(serve(['needs.search_notes=logging'], []).status).toBe(2);
  });
});
