// Running the compiled broker as the harness does: a separate process, spoken to over stdio,
// against the fake server fixture. Every wait is on an event and bounded; every process a test
// starts is stopped in cleanup().

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

export const CLI = resolve('dist/src/cli.js');
export const FIXTURE = resolve('test/broker/fixtures/fake-server.mjs');
const WAIT_MS = 15_000;

if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build with npx tsc -b first`);

/** Rejects after `ms` unless `promise` settles first; the timer never outlives the wait. */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Alive and not a zombie: a killed process whose parent has not reaped it is dead. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Waits, bounded, for a killed process to be gone; the kernel delivers SIGKILL asynchronously. */
export async function waitDead(pid: number): Promise<boolean> {
  await waitFor(() => !isAlive(pid), `process ${pid} to be gone`).catch(() => undefined);
  return !isAlive(pid);
}

/** Waits, bounded, for a condition another process brings about (a file it writes, its exit). */
export async function waitFor(condition: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() >= deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export interface Spec {
  pages?: string[];
  cursors?: string[];
  endless?: boolean;
  initialize?: 'ok' | 'hang';
  listing?: 'ok' | 'hang';
  listLine?: string;
  grandchild?: boolean;
  callResult?: string;
  bigText?: number;
}

export interface ToolText {
  name: string;
  description?: string;
  schema?: string;
  annotations?: string;
}

/** The raw text of a `tools` array; schemas are spliced in as written, big numbers and all. */
/** The rules for just the tools a server lists: a rule for a tool the manifest does not pin fails the load. */
export function rulesFor<R>(rules: Readonly<Record<string, R>>, tools: readonly ToolText[]): Record<string, R> {
  return Object.fromEntries(tools.flatMap((t) => (Object.hasOwn(rules, t.name) ? [[t.name, rules[t.name] as R]] : [])));
}

export function toolsText(tools: ToolText[]): string {
  return `[${tools
    .map(
      (t) =>
        `{"name":${JSON.stringify(t.name)}${t.description === undefined ? '' : `,"description":${JSON.stringify(t.description)}`},"inputSchema":${t.schema ?? '{"type":"object"}'}${t.annotations === undefined ? '' : `,"annotations":${t.annotations}`}}`,
    )
    .join(',')}]`;
}

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** One test's scratch directory, fixture spec, configuration, and the processes it started. */
export class Workdir {
  readonly dir = mkdtempSync(join(tmpdir(), 'broker-e2e-'));
  readonly callLog = this.path('calls.jsonl');
  readonly envFile = this.path('env.json');
  readonly pidFile = this.path('grandchild.pid');
  readonly serverPidFile = this.path('server.pid');
  readonly manifest = this.path('manifest.json');
  readonly report = this.path('load.json');
  readonly config = this.path('config.json');
  private readonly children: ChildProcessWithoutNullStreams[] = [];

  path(name: string): string {
    return join(this.dir, name);
  }

  spec(spec: Spec): void {
    const paths = { callLog: this.callLog, envFile: this.envFile, pidFile: this.pidFile, serverPidFile: this.serverPidFile };
    writeFileSync(this.path('spec.json'), JSON.stringify({ ...paths, ...spec }));
  }

  writeConfig(
    rules: object,
    extra: { limits?: object; env?: object; command?: string; prefix?: string; grants?: object[]; policy?: object; agents?: object } = {},
  ): void {
    const { limits, env, command, prefix, ...operator } = extra;
    const server = { id: 'notes', command: command ?? process.execPath, args: [FIXTURE, this.path('spec.json')], env, prefix };
    // Private whatever the umask: the broker reads no operator file others could write.
    writeFileSync(this.config, JSON.stringify({ server, rules, limits, ...operator }), { mode: 0o600 });
  }

  /** The raw lines the server received, for "it never received X" checks. */
  received(): string[] {
    return existsSync(this.callLog) ? readFileSync(this.callLog, 'utf8').split('\n').filter((l) => l !== '') : [];
  }

  grandchildPid(): number {
    return Number(readFileSync(this.pidFile, 'utf8'));
  }

  start(args: string[], env: NodeJS.ProcessEnv = process.env): BrokerProcess {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['pipe', 'pipe', 'pipe'], env });
    this.children.push(child);
    return new BrokerProcess(child);
  }

  /** Runs a command that needs no input to completion. */
  run(args: string[]): Promise<Exit> {
    const broker = this.start(args);
    broker.closeInput();
    return broker.exit();
  }

  pin(): Promise<Exit> {
    return this.run(['pin', '--config', this.config, '--out', this.manifest]);
  }

  /**
   * Serves with the state directory in this workdir unless `extra` names one: without it a
   * policy that approves anything (the default's destructive) has the broker make one in the
   * system's temporary directory, which no cleanup would find.
   */
  serve(...extra: string[]): BrokerProcess {
    const state = extra.includes('--state-dir') ? [] : ['--state-dir', this.path('state')];
    return this.serveAsGiven(...state, ...extra);
  }

  /** Serves with exactly the options given besides configuration, manifest and report. */
  serveAsGiven(...extra: string[]): BrokerProcess {
    return this.start(['serve', '--config', this.config, '--manifest', this.manifest, '--report', this.report, ...extra]);
  }

  loadReport(): any {
    return JSON.parse(readFileSync(this.report, 'utf8'));
  }

  /** Stops every broker this test started, and anything of the server's they left behind. */
  async cleanup(): Promise<void> {
    for (const child of this.children) {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM'); // lets the broker stop its server's group
        await within(exited, WAIT_MS, 'the broker to stop').catch(() => child.kill('SIGKILL'));
      }
    }
    for (const file of [this.serverPidFile, this.pidFile]) {
      if (!existsSync(file)) continue;
      const pid = Number(readFileSync(file, 'utf8'));
      for (const target of [-pid, pid]) {
        try {
          process.kill(target, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A running broker: JSON-RPC over its stdio, with responses matched by id. */
export class BrokerProcess {
  readonly lines: string[] = [];
  private readonly waiters = new Map<string, (line: string) => void>();
  private stderr = '';
  private readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    createInterface({ input: child.stdout }).on('line', (line) => {
      this.lines.push(line);
      if (!line.startsWith('{')) return; // a command's own output (audit-verify), not an answer
      const id = JSON.stringify(JSON.parse(line).id);
      this.waiters.get(id)?.(line);
      this.waiters.delete(id);
    });
    this.exited = new Promise((r) => child.once('exit', (code, signal) => r({ code, signal })));
    child.stdin.on('error', () => undefined);
  }

  send(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  /** Sends a request and resolves with the raw response line. */
  request(id: number | string, method: string, params?: object | string): Promise<string> {
    const key = JSON.stringify(id);
    const answered = new Promise<string>((r) => this.waiters.set(key, r));
    const p = params === undefined ? '' : `,"params":${typeof params === 'string' ? params : JSON.stringify(params)}`;
    this.send(`{"jsonrpc":"2.0","id":${key},"method":"${method}"${p}}`);
    return within(answered, WAIT_MS, `the answer to ${method} ${key}; stderr: ${this.stderr}`);
  }

  async initialize(): Promise<unknown> {
    return JSON.parse(await this.request(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } }));
  }

  call(id: number, name: string, args = '{}'): Promise<string> {
    return this.request(id, 'tools/call', `{"name":${JSON.stringify(name)},"arguments":${args}}`);
  }

  closeInput(): void {
    this.child.stdin.end();
  }

  async exit(): Promise<Exit> {
    const { code, signal } = await within(this.exited, WAIT_MS, 'the broker to exit');
    return { code, signal, stdout: this.lines.join('\n'), stderr: this.stderr };
  }
}
