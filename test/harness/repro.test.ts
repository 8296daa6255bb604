import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { packageRoot } from '../../harness/paths.js';
import { readLedger } from '../../servers/kit/ledger.js';

const run = promisify(execFile);
const bin = join(packageRoot, 'bin', 'gauntlet.js');

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A project with mcp-gauntlet installed (this checkout, linked as npm links a dependency's
 * command), and the repro folder of `id` inside it: where a reviewer's folder lives, and where its
 * script finds mcp-gauntlet through npx.
 */
async function repro(id: string): Promise<{ out: string; stdout: string }> {
  const project = mkdtempSync(join(tmpdir(), 'gauntlet-repro-'));
  dirs.push(project);
  writeFileSync(join(project, 'package.json'), '{"name":"reviewer","private":true}\n');
  mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(packageRoot, join(project, 'node_modules', 'mcp-gauntlet'));
  symlinkSync(join('..', 'mcp-gauntlet', 'bin', 'gauntlet.js'), join(project, 'node_modules', '.bin', 'gauntlet'));
  const out = join(project, 'folder');
  const { stdout } = await run(process.execPath, [bin, 'repro', id, '--out', out], { cwd: project });
  return { out, stdout };
}

/** The folder's script started as a client starts it, from another directory; npx may use nothing but what is installed. */
const scriptOptions = { cwd: tmpdir(), env: { ...process.env, npm_config_offline: 'true' } };
function startStdioScript(out: string) {
  const server = spawn(join(out, 'start-server.sh'), [], { ...scriptOptions, stdio: ['pipe', 'pipe', 'inherit'] });
  // A test that fails before closing its stdin leaves nothing running (a no-op once it has exited).
  onTestFinished(() => void server.kill('SIGKILL'));
  return server;
}
const startHttpScript = (out: string) => spawn(join(out, 'start-server.sh'), [], { ...scriptOptions, stdio: ['ignore', 'ignore', 'pipe'] });

/** Whether anything listens on a loopback port. */
const listening = (port: number): Promise<boolean> =>
  fetch(`http://127.0.0.1:${port}/`).then(
    () => true,
    () => false,
  );

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
    // Nothing of this machine's: the folder runs wherever mcp-gauntlet is installed around it.
    expect(readFileSync(join(out, 'start-server.sh'), 'utf8')).not.toContain(packageRoot);
    expect(readFileSync(join(out, 'start-server.sh'), 'utf8')).not.toContain(process.execPath);
    expect(JSON.parse(readFileSync(join(out, 'operator.json'), 'utf8'))).toEqual({ tools: { search_notes: { effect: 'read_only' }, read_note: { effect: 'read_only' } } });
    const readme = readFileSync(join(out, 'README.txt'), 'utf8');
    expect(readme).toContain('its benign control is pin.description-unchanged');
    expect(readme).toContain('"tool":"search_notes": exactly 0 expected for this call; any at all means the call reached the server');
    expect(readme).toContain('echo run > phase');

    // Started as a client would start it, from another directory: its ledger is the folder's.
    const server = startStdioScript(out);
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
    const script = startHttpScript(out);
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

  it('starts a canary listener with a stdio server whose schema names it, records what reaches it, and stops it with the server', async () => {
    const { out, stdout } = await repro('sch.ref-to-url');
    expect(stdout).toContain(join(out, 'canary.jsonl'));
    expect(readFileSync(join(out, 'command.txt'), 'utf8')).toBe('npx gauntlet serve outside-references --ledger ledger.jsonl --control phase --canary canary.jsonl schema.search_notes=ref-url\n');
    const readme = readFileSync(join(out, 'README.txt'), 'utf8');
    expect(readme).toContain('canary.jsonl     written by the canary listener');
    expect(readme).toContain('at most 0 request lines expected; any at all means the canary was reached');

    const server = startStdioScript(out);
    const exited = new Promise((resolve) => server.once('exit', resolve));
    const lines = createInterface({ input: server.stdout });
    const answers = new Map<number, { result?: { tools?: Array<{ name: string; inputSchema: unknown }> } }>();
    const answered = (id: number) => expect.poll(() => answers.get(id), { timeout: 20_000 }).toBeDefined();
    lines.on('line', (line) => {
      const message = JSON.parse(line) as { id?: number; result?: { tools?: Array<{ name: string; inputSchema: unknown }> } };
      if (typeof message.id === 'number') answers.set(message.id, message);
    });
    server.stdin.write(`${JSON.stringify(INITIALIZE)}\n`);
    await answered(1);
    server.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`);
    await answered(2);
    const [listening_, ...before] = readFileSync(join(out, 'canary.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { ev: string; port?: number; path?: string });
    expect(listening_).toMatchObject({ ev: 'listening' });
    expect(before).toEqual([]);
    const port = listening_!.port!;
    // The schema's URL names the folder's own canary; fetched (as a broker must not), it is recorded.
    const search = answers.get(2)!.result!.tools!.find((tool) => tool.name === 'search_notes')!;
    const url = JSON.stringify(search.inputSchema).match(/http:\/\/127\.0\.0\.1:(\d+)\/[^"]*/)!;
    expect(Number(url[1])).toBe(port);
    expect((await fetch(url[0], { headers: { authorization: 'Bearer leaked' } })).status).toBe(404);
    const requests = readFileSync(join(out, 'canary.jsonl'), 'utf8').trim().split('\n').slice(1).map((line) => JSON.parse(line) as unknown);
    expect(requests).toEqual([expect.objectContaining({ ev: 'request', method: 'GET', path: '/query.json', headers: expect.objectContaining({ authorization: 'Bearer leaked' }) })]);
    server.stdin.end();
    expect(await exited).toBe(0);
    expect(await listening(port)).toBe(false);
  });

  it('starts a canary listener with an HTTP server that redirects to it, stopped when the script is', async () => {
    const { out } = await repro('net.redirect-not-followed');
    expect(readFileSync(join(out, 'command.txt'), 'utf8')).toBe('npx gauntlet serve notes --ledger ledger.jsonl --control phase --canary canary.jsonl --http --listen 127.0.0.1 http_redirect_calls=1\n');
    const script = startHttpScript(out);
    const exited = new Promise((resolve) => script.once('exit', resolve));
    let port: number;
    try {
      const url = (await lineMatching(script.stderr, /^listening: (http:\/\/127\.0\.0\.1:\d+\/mcp) /))?.[1];
      expect(url).toBeDefined();
      const post = (body: unknown, redirect: 'error' | 'follow') =>
        fetch(url!, { method: 'POST', redirect, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(body) });
      expect((await post(INITIALIZE, 'error')).status).toBe(200);
      // A client that follows the redirect, as a broker must not, reaches the canary.
      const call = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_notes', arguments: { query: 'budget' } } }, 'follow');
      expect(call.status).toBe(404);
      const [first, ...requests] = readFileSync(join(out, 'canary.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { ev: string; port?: number });
      port = first!.port!;
      expect(new URL(call.url).port).toBe(String(port));
      expect(requests).toEqual([expect.objectContaining({ ev: 'request', method: 'POST', path: '/mcp' })]);
    } finally {
      script.kill('SIGTERM');
      await exited;
    }
    const launch = readLedger(join(out, 'ledger.jsonl')).find((record) => record.ev === 'launch')!;
    await expect.poll(() => alive(launch.pid)).toBe(false);
    expect(await listening(port)).toBe(false);
  });

  it('serves with a canary only where it gives the server its port: a canary_port beside --canary is refused with exit 2', async () => {
    const refused = run(process.execPath, [bin, 'serve', 'notes', '--canary', join(tmpdir(), 'never.jsonl'), 'canary_port=9']);
    await expect(refused).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/--canary gives the server its own canary_port; give one or the other/) });
    await expect(run(process.execPath, [bin, 'serve', 'notes', '--canary'])).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/--canary needs the file/) });
    expect(existsSync(join(tmpdir(), 'never.jsonl'))).toBe(false);
  });

  it('refuses an unknown scenario id with exit 2', async () => {
    await expect(run(process.execPath, [bin, 'repro', 'no.such-scenario', '--out', join(tmpdir(), 'never')])).rejects.toMatchObject({ code: 2 });
    expect(existsSync(join(tmpdir(), 'never'))).toBe(false);
  });
});
