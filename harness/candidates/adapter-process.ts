import { devNull } from 'node:os';
import { AdapterError } from './adapter-error.js';
import { spawnChannel } from './child.js';
import { protocolViolation, type ProtocolMethod } from './protocol-schemas.js';
import type { AgentChannel, ExitStatus } from './types.js';

/** How long the adapter gets to exit on its own once its stdin closes, before its group is killed. */
const EXIT_GRACE_MS = 3_000;

interface Pending {
  method: ProtocolMethod;
  resolve(result: unknown): void;
  reject(error: AdapterError): void;
}

const statusText = (status: ExitStatus): string => status.error ?? (status.signal !== null ? `killed by ${status.signal}` : `exit code ${status.code}`);

/**
 * One adapter process speaking gauntlet-candidate/2: requests on its stdin, one JSON answer a
 * line on its stdout, its stderr kept as a tail. It runs in a process group of its own for the
 * whole run. Every request and every answer is checked against the protocol's schemas; an answer
 * that is invalid, late, for no request, or that never comes because the adapter went away, is
 * an AdapterError naming the method and the problem.
 */
export class AdapterProcess {
  private readonly channel: AgentChannel;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** Ids whose wait ran out: an answer to one arriving late is dropped, not taken as a stray. */
  private readonly expired = new Set<number>();
  /** Set once the adapter wrote something no correct adapter writes, or exited: nothing it says is trusted after. */
  private broken: string | undefined;
  /** Settles once the request sent last is answered or timed out: the next waits on it. */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(
    /** How the adapter was named, for messages. */
    readonly source: string,
    command: string,
    args: string[],
  ) {
    this.channel = spawnChannel(command, args, { cwd: process.cwd(), env: process.env, stderrFile: devNull });
    this.channel.onLine((line) => this.receive(line));
    void this.channel.exited.then((status) => this.fail(`exited (${statusText(status)})${this.stderrNote()}`));
  }

  /** The adapter's own pid, which is also its process group's id. */
  get pid(): number | undefined {
    return this.channel.pid;
  }

  get exited(): Promise<ExitStatus> {
    return this.channel.exited;
  }

  /** Sends one request and resolves with its result once it is valid, within `timeoutMs`. */
  async request(method: ProtocolMethod, params: Record<string, unknown>, timeoutMs: number): Promise<unknown> {
    const result = await this.call(method, params, timeoutMs);
    // The envelope and its id were checked on arrival; this is the method's own result.
    const violation = protocolViolation(`${method}.answer`, { id: 1, result });
    if (violation !== undefined) throw this.error(method, `the answer does not match ${method}.answer.schema.json: ${violation}`);
    return result;
  }

  /**
   * Sends one request once every earlier one is answered or timed out, and resolves with whatever
   * result it gets, before the method's own schema is applied. The protocol sends requests one at
   * a time (docs/adapter-protocol.md), also when scenarios run in parallel (`--jobs`): each waits
   * its turn, and its timeout runs from when it is sent.
   */
  call(method: ProtocolMethod, params: Record<string, unknown>, timeoutMs: number): Promise<unknown> {
    const turn = this.turn.then(() => this.send(method, params, timeoutMs));
    this.turn = turn.catch(() => undefined);
    return turn;
  }

  private send(method: ProtocolMethod, params: Record<string, unknown>, timeoutMs: number): Promise<unknown> {
    if (this.broken !== undefined) return Promise.reject(this.error(method, `the adapter ${this.broken}`));
    const id = this.nextId++;
    const request = { id, method, params };
    // The harness holds itself to the same schemas: the documented protocol is the one spoken.
    const own = protocolViolation(`${method}.request`, request);
    if (own !== undefined) return Promise.reject(new Error(`harness bug: its ${method} request does not match ${method}.request.schema.json: ${own}`));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        this.expired.add(id);
        reject(this.error(method, `no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, {
        method,
        resolve: (result) => {
          clearTimeout(timer);
          resolve(result);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.channel.send(JSON.stringify(request));
    });
  }

  /**
   * Closes the adapter's stdin and waits for it to exit on its own, within a grace period; then its
   * whole group is killed, so nothing it started outlives it. Says whether it exited on its own.
   */
  async end(): Promise<{ exitedOnItsOwn: boolean }> {
    this.channel.endInput?.();
    const late = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), EXIT_GRACE_MS).unref());
    const exitedOnItsOwn = (await Promise.race([this.channel.exited, late])) !== 'late';
    await this.channel.close();
    return { exitedOnItsOwn };
  }

  stderrTail(): string {
    return this.channel.stderrTail?.() ?? '';
  }

  private stderrNote(): string {
    const tail = this.stderrTail().trim();
    return tail === '' ? '' : `; its stderr ends: ${tail.slice(-1_000)}`;
  }

  private error(method: ProtocolMethod, problem: string): AdapterError {
    return new AdapterError(`${this.source}: ${method}: ${problem}`);
  }

  private receive(line: string): void {
    let answer: unknown;
    try {
      answer = JSON.parse(line);
    } catch {
      this.fail(`wrote a line on stdout that is not JSON: ${JSON.stringify(line.slice(0, 200))}`);
      return;
    }
    const violation = protocolViolation('answer', answer);
    if (violation !== undefined) {
      this.fail(`wrote a line on stdout that is not an answer (answer.schema.json: ${violation}): ${line.slice(0, 200)}`);
      return;
    }
    const { id, result, error } = answer as { id: number; result?: unknown; error?: { message: string } };
    const waiter = this.pending.get(id);
    if (!waiter) {
      if (!this.expired.delete(id)) this.fail(`answered id ${id}, which no request had`);
      return;
    }
    this.pending.delete(id);
    if (error !== undefined) waiter.reject(this.error(waiter.method, `the adapter answered with an error: ${error.message}`));
    else waiter.resolve(result);
  }

  /** The adapter can no longer be trusted: every request waiting, and every later one, fails with why. */
  private fail(problem: string): void {
    this.broken ??= problem;
    for (const waiter of this.pending.values()) waiter.reject(this.error(waiter.method, `the adapter ${problem}`));
    this.pending.clear();
  }
}
