/**
 * The compiled server, started as a process the way the harness and brokers start it. Needs
 * `tsc -p tsconfig.json` to have emitted dist/ first.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type LedgerRecord, readLedger } from '../../servers/kit/ledger.js';

const entry = fileURLToPath(new URL('../../dist/servers/main.js', import.meta.url));

let dir: string;
let ledgerPath: string;
let controlPath: string;
const children: ChildProcessWithoutNullStreams[] = [];
const transports: StdioClientTransport[] = [];

beforeAll(() => {
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run npx tsc -p tsconfig.json first`);
});
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kit-e2e-'));
  ledgerPath = join(dir, 'ledger.jsonl');
  controlPath = join(dir, 'phase');
});
afterEach(async () => {
  for (const transport of transports.splice(0)) await transport.close();
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

/** Starts the server; `lines` yields its stdout line by line, `exited` its exit code and signal. */
function start(args: string[], env: NodeJS.ProcessEnv = process.env) {
  const child = spawn(process.execPath, [entry, ...args], { env, stdio: 'pipe' });
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const nextLine = async () => {
    const { value, done } = await lines.next();
    if (done) throw new Error(`server closed stdout; stderr: ${stderr}`);
    return value as string;
  };
  return { child, exited, nextLine, stderr: () => stderr };
}

type RecvRecord = Extract<LedgerRecord, { ev: 'recv' }>;
const recvs = (records: LedgerRecord[]) => records.filter((r): r is RecvRecord => r.ev === 'recv');

describe('a real MCP client', () => {
  it('connects to float-drift, lists tools in both phases and calls one', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [entry, 'float-drift', '--ledger', ledgerPath, '--control', controlPath],
      stderr: 'pipe',
    });
    transports.push(transport);
    const client = new Client({ name: 'kit-e2e', version: '0.0.0' });
    await client.connect(transport);
    expect(client.getServerVersion()).toEqual({ name: 'float-drift', version: '0.1.0' });
    expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: true } });

    const review = await client.listTools();
    writeFileSync(controlPath, 'run');
    const run = await client.listTools();
    expect(review.tools.map((t) => t.name)).toEqual(['search_notes', 'read_note', 'write_note']);
    // The SDK decodes through float64: it cannot see that the bound moved.
    expect(run).toEqual(review);
    expect((review.tools[0]!.inputSchema.properties as { limit: { maximum: number } }).limit.maximum).toBe(2 ** 53);

    const called = await client.callTool({ name: 'read_note', arguments: { id: 1 } });
    expect(called.content).toEqual([{ type: 'text', text: 'read_note ran' }]);
    await client.close();

    const records = readLedger(ledgerPath);
    const lists = recvs(records).filter((r) => r.method === 'tools/list');
    expect(lists.map((r) => r.phase)).toEqual(['review', 'run']);
    // ...while the bytes it was sent did differ.
    const sentHash = (id: string | null) =>
      records.flatMap((r) => (r.ev === 'sent' && r.in_reply_to === id ? [r.sha256] : []));
    const [reviewHash, runHash] = [sentHash(lists[0]!.id), sentHash(lists[1]!.id)];
    expect(reviewHash).toHaveLength(1);
    expect(runHash).toHaveLength(1);
    expect(runHash).not.toEqual(reviewHash);
    expect(recvs(records).find((r) => r.method === 'tools/call')).toMatchObject({ tool: 'read_note', phase: 'run' });
    expect(records.at(-1)).toMatchObject({ ev: 'exit', reason: 'stdin-closed' });
  });
});

describe('raw lines and the ledger', () => {
  it('records the launch with its environment, every line received with method and tool, and the exit', async () => {
    const env = { ...process.env, KIT_E2E_CANARY: 'canary-5b1e' };
    const server = start(['tool-dropper', '--ledger', ledgerPath, '--control', controlPath, 'page_size=2'], env);
    const send = (line: string) => server.child.stdin.write(`${line}\r\n`);

    send('{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26"}}');
    expect(JSON.parse(await server.nextLine()).result.protocolVersion).toBe('2025-03-26');
    send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    send('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
    expect(JSON.parse(await server.nextLine()).result.nextCursor).toBe('page-2');
    writeFileSync(controlPath, 'run\n');
    send('{"jsonrpc":"2.0","id":2,"method":"tools/list"}');
    const runPage = JSON.parse(await server.nextLine()).result;
    expect(runPage.tools.map((t: { name: string }) => t.name)).toEqual(['search_notes', 'write_note']);
    expect(runPage.nextCursor).toBeUndefined();
    send('{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"read_note","arguments":{"id":1}}}');
    expect(await server.nextLine()).toBe(
      '{"jsonrpc":"2.0","id":"c","result":{"content":[{"type":"text","text":"read_note ran"}]}}',
    );
    server.child.stdin.end();
    expect(await server.exited).toEqual([0, null]);

    const records = readLedger(ledgerPath);
    expect(records.map((r) => r.seq)).toEqual(records.map((_, i) => i));
    expect(new Set(records.map((r) => r.pid))).toEqual(new Set([server.child.pid]));
    expect(records[0]).toMatchObject({
      ev: 'launch',
      server: 'tool-dropper',
      ppid: process.pid,
      knobs: { 'run.drop': 'read_note', page_size: '2' },
      env: { KIT_E2E_CANARY: 'canary-5b1e' },
    });
    expect((records[0] as { argv: string[] }).argv.slice(1)).toEqual([
      entry,
      'tool-dropper',
      '--ledger',
      ledgerPath,
      '--control',
      controlPath,
      'page_size=2',
    ]);
    // Sent with CRLF: the CR is not part of the line.
    expect(recvs(records)[1]).toMatchObject({
      raw: '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      bytes: 54,
    });
    expect(recvs(records).map((r) => [r.method, r.id, r.tool, r.phase])).toEqual([
      ['initialize', '0', null, 'review'],
      ['notifications/initialized', null, null, 'review'],
      ['tools/list', '1', null, 'review'],
      ['tools/list', '2', null, 'run'],
      ['tools/call', '"c"', 'read_note', 'run'],
    ]);
    const replies = records.flatMap((r) => (r.ev === 'sent' ? [r.in_reply_to] : []));
    expect(replies).toEqual(['0', '1', '2', '"c"']);
    expect(records.at(-1)).toMatchObject({ ev: 'exit', reason: 'stdin-closed' });
  });

  it('records a SIGTERM as the exit and dies of it', async () => {
    const server = start(['notes', '--ledger', ledgerPath]);
    server.child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    expect(await server.nextLine()).toBe('{"jsonrpc":"2.0","id":1,"result":{}}');
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual([null, 'SIGTERM']);
    expect(readLedger(ledgerPath).at(-1)).toMatchObject({ ev: 'exit', reason: 'SIGTERM' });
  });

  it('stops with exit code 2 when the control file holds no phase', async () => {
    writeFileSync(controlPath, 'later');
    const server = start(['notes', '--ledger', ledgerPath, '--control', controlPath]);
    server.child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    expect(await server.exited).toEqual([2, null]);
    expect(server.stderr()).toContain('"later"');
    expect(readLedger(ledgerPath).map((r) => r.ev)).toEqual(['launch', 'exit']);
    expect(readLedger(ledgerPath).at(-1)).toMatchObject({ reason: 'bad-control-file' });
  });
});

describe('calls that never come back', () => {
  const call = (id: number, name: string) =>
    `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","arguments":{"id":${id},"text":"t"}}}\n`;

  it('hanging-tool leaves a write_note call unanswered and goes on serving', async () => {
    const server = start(['hanging-tool', '--ledger', ledgerPath]);
    server.child.stdin.write(call(1, 'write_note'));
    server.child.stdin.write(call(2, 'read_note'));
    expect(JSON.parse(await server.nextLine())).toMatchObject({ id: 2 });
    server.child.stdin.end();
    expect(await server.exited).toEqual([0, null]);
    const records = readLedger(ledgerPath);
    expect(recvs(records).map((r) => [r.id, r.tool])).toEqual([
      ['1', 'write_note'],
      ['2', 'read_note'],
    ]);
    expect(records.flatMap((r) => (r.ev === 'sent' ? [r.in_reply_to] : []))).toEqual(['2']);
  });

  it('dying-tool exits with code 1 on a write_note call, without answering, and records why', async () => {
    const server = start(['dying-tool', '--ledger', ledgerPath]);
    server.child.stdin.write(call(1, 'read_note'));
    expect(JSON.parse(await server.nextLine())).toMatchObject({ id: 1 });
    server.child.stdin.write(call(2, 'write_note'));
    expect(await server.exited).toEqual([1, null]);
    await expect(server.nextLine()).rejects.toThrow(/closed stdout/);
    const records = readLedger(ledgerPath);
    expect(records.map((r) => r.ev)).toEqual(['launch', 'recv', 'sent', 'recv', 'exit']);
    expect(records[3]).toMatchObject({ method: 'tools/call', id: '2', tool: 'write_note' });
    expect(records[4]).toMatchObject({ ev: 'exit', reason: 'die-on-call' });
  });
});

describe('listed names', () => {
  it('bad-names lists write_note as "write note; rm -rf" and answers calls under that name', async () => {
    const server = start(['bad-names']);
    server.child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n');
    const tools = JSON.parse(await server.nextLine()).result.tools as { name: string }[];
    expect(tools.map((t) => t.name)).toEqual(['search_notes', 'read_note', 'write note; rm -rf']);
    server.child.stdin.write('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"write note; rm -rf"}}\n');
    expect(await server.nextLine()).toBe(
      '{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"write note; rm -rf ran"}]}}',
    );
  });
});

describe('a bad command line', () => {
  it.each([
    [['no-such-server'], /unknown server id "no-such-server".*server ids: notes, rug-pull-description/],
    [['notes', 'page_size=0'], /bad value "0" for knob page_size/],
    [['notes', 'colour=red'], /unknown knob "colour"/],
    [['notes', '--ledger'], /--ledger needs a file/],
    [['notes', '--ledger', '/nonexistent-dir/ledger.jsonl'], /cannot write the ledger/],
    [['notes', 'schema.write_note=folder'], /bad value "folder" for knob schema\.write_note/],
    [['outside-references', 'canary_port=70000'], /bad value "70000" for knob canary_port/],
    [['bad-names', 'name.write_note='], /bad value "" for knob name\.write_note/],
    [['strict-schema', 'bignum=write_note'], /schema\.write_note and bignum/],
  ])('%j stops at start with exit code 2 and a message', async (args, message) => {
    const server = start([...args]);
    expect(await server.exited).toEqual([2, null]);
    expect(server.stderr()).toMatch(message);
  });
});
