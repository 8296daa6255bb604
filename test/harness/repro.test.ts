import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { packageRoot } from '../../harness/paths.js';
import { readLedger } from '../../servers/kit/ledger.js';

const run = promisify(execFile);
const bin = join(packageRoot, 'bin', 'gauntlet.js');

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function repro(id: string): Promise<{ out: string; stdout: string }> {
  const scratch = mkdtempSync(join(tmpdir(), 'gauntlet-repro-'));
  dirs.push(scratch);
  const out = join(scratch, 'folder');
  const { stdout } = await run(process.execPath, [bin, 'repro', id, '--out', out], { cwd: scratch });
  return { out, stdout };
}

/** The first line a stream gives that matches, or undefined once it ends without one. */
function lineMatching(stream: NodeJS.ReadableStream, pattern: RegExp): Promise<RegExpMatchArray | undefined> {
  return new Promise((resolve) => {
    const lines = createInterface({ input: stream });
    lines.on('line', (line) => {
      const match = line.match(pattern);
      if (match) {
        // Before close(), whose 'close' event is emitted at once.
        resolve(match);
        lines.close();
      }
    });
    lines.once('close', () => resolve(undefined));
  });
}

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'repro-test', version: '1' } } };

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('gauntlet repro', () => {
  it('writes a stdio scenario as a folder whose script is a server answering initialize, with its ledger there', async () => {
    const { out, stdout } = await repro('pin.description-reworded');
    expect(stdout).toContain(`wrote ${out}`);
    expect(stdout).toContain(join(out, 'start-server.sh'));
    expect(readFileSync(join(out, 'command.txt'), 'utf8')).toBe('npx gauntlet serve rug-pull-description --ledger ledger.jsonl --control phase\n');
    expect(JSON.parse(readFileSync(join(out, 'operator.json'), 'utf8'))).toEqual({ tools: { search_notes: { effect: 'read_only' }, read_note: { effect: 'read_only' } } });
    const readme = readFileSync(join(out, 'README.txt'), 'utf8');
    expect(readme).toContain('its benign control is pin.description-unchanged');
    expect(readme).toContain('"tool":"search_notes": exactly 0 expected for this call; any at all means the call reached the server');
    expect(readme).toContain('echo run > phase');

    // Started as a client would start it, from another directory: its ledger is the folder's.
    const server = spawn(join(out, 'start-server.sh'), [], { cwd: tmpdir(), stdio: ['pipe', 'pipe', 'inherit'] });
    const reply = lineMatching(server.stdout, /^\{.*\}$/);
    server.stdin.write(`${JSON.stringify(INITIALIZE)}\n`);
    const answer = JSON.parse((await reply)![0]) as { id: number; result?: { serverInfo?: unknown } };
    expect(answer.id).toBe(1);
    expect(answer.result?.serverInfo).toBeDefined();
    server.stdin.end();
    expect(await new Promise((resolve) => server.once('exit', resolve))).toBe(0);
    const records = readLedger(join(out, 'ledger.jsonl'));
    expect(records.map((record) => record.ev)).toEqual(expect.arrayContaining(['launch', 'recv', 'sent', 'exit']));
    expect(records.find((record) => record.ev === 'recv')).toMatchObject({ method: 'initialize', phase: 'review' });
  });

  it('writes an HTTP scenario whose script listens on loopback, prints its URL and stops with its server', async () => {
    const { out } = await repro('crd.http-server-reached');
    expect(readFileSync(join(out, 'command.txt'), 'utf8')).toContain('serve notes --ledger ledger.jsonl --control phase --http --listen 127.0.0.1');
    const script = spawn(join(out, 'start-server.sh'), [], { stdio: ['ignore', 'ignore', 'pipe'] });
    const exited = new Promise((resolve) => script.once('exit', resolve));
    try {
      const url = (await lineMatching(script.stderr, /^listening: (http:\/\/127\.0\.0\.1:\d+\/mcp) /))?.[1];
      expect(url).toBeDefined();
      const response = await fetch(url!, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(INITIALIZE) });
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('"serverInfo"');
    } finally {
      script.kill('SIGTERM');
      await exited;
    }
    const records = readLedger(join(out, 'ledger.jsonl'));
    expect(records.find((record) => record.ev === 'request')).toMatchObject({ method: 'POST', path: '/mcp' });
    // The script's trap stopped its server, which recorded why: nothing outlives the script.
    const launch = records.find((record) => record.ev === 'launch')!;
    await expect.poll(() => readLedger(join(out, 'ledger.jsonl')).find((record) => record.ev === 'exit' && record.pid === launch.pid)).toMatchObject({ reason: 'SIGTERM' });
    await expect.poll(() => alive(launch.pid)).toBe(false);
  });

  it('refuses an unknown scenario id with exit 2', async () => {
    await expect(run(process.execPath, [bin, 'repro', 'no.such-scenario', '--out', join(tmpdir(), 'never')])).rejects.toMatchObject({ code: 2 });
    expect(existsSync(join(tmpdir(), 'never'))).toBe(false);
  });
});
