import { join } from 'node:path';
import { dir as tmpDir, type DirectoryResult } from 'tmp-promise';
import { AgentClient, type Answer } from '../harness/agent/client.js';
import type { AgentChannel, Candidate, SessionSpec } from '../harness/candidates/types.js';
import { Ledger, launches } from '../harness/observe/ledger.js';
import { OPERATOR_ENV } from '../harness/run/execute.js';
import { kitCommand } from '../harness/run/members.js';
import { HttpServer } from '../harness/run/http-server.js';
import type { ToolRule } from '../harness/scenario/types.js';
import { elapsedMs, now } from './clock.js';
import { cpuBetween, readCpu, type CpuReading, type CpuSpent } from './cpu.js';

/** The kit server a session runs: its knobs, and the operator's rule for each tool it classifies. */
export interface ServerPlan {
  knobs: Record<string, string>;
  tools: Record<string, ToolRule>;
}

/**
 * One candidate started in front of one kit server, as the harness runs it for a scenario, with
 * the agent's client ready: the lower-level "start this broker in front of this server and give
 * me an MCP channel" a benchmark needs, built from the same adapters, agent and kit.
 */
export class BenchSession {
  private constructor(
    readonly candidate: Candidate,
    readonly client: AgentClient,
    readonly channel: AgentChannel,
    readonly ledger: Ledger,
    /** Spawn (the adapter's start) to the whole listing received, in milliseconds. */
    readonly listedMs: number,
    /** How many tools the agent was offered. */
    readonly listed: number,
    /** The candidate's pin, in milliseconds. */
    readonly pinMs: number,
    /** The CPU the broker's processes and the server's spent from spawn to the whole listing. */
    readonly startUpCpu: CpuSpent,
    private readonly cleanup: () => Promise<void>,
  ) {}

  /**
   * Pins (a no-op for a candidate that pins nothing), then starts the candidate, initializes and
   * lists every page. A candidate that reaches servers by URL only is given the kit served over
   * HTTP on loopback, which the harness runs. Whatever fails, nothing started is left running.
   */
  static async open(candidate: Candidate, plan: ServerPlan, timeoutMs: number): Promise<BenchSession> {
    const workdir = await tmpDir({ prefix: 'gauntlet-bench-', unsafeCleanup: true });
    const ledger = new Ledger(join(workdir.path, 'ledger.jsonl'));
    // No canary: a benchmark judges nothing, and the kit's cheap tool reaches out nowhere.
    const command = kitCommand('notes', plan.knobs, ledger.path, join(workdir.path, 'phase'), undefined);
    let http: HttpServer | undefined;
    let channel: AgentChannel | undefined;
    const cleanup = async () => {
      await channel?.close();
      await http?.stop();
      await workdir.cleanup();
    };
    try {
      const byUrl = !(candidate.info.upstreams ?? ['command']).includes('command');
      if (byUrl) http = await HttpServer.start(command, ledger, timeoutMs, ['127.0.0.1'], undefined);
      const spec: SessionSpec = {
        workdir: workdir.path,
        upstream: http === undefined ? command : { id: command.id, url: `http://127.0.0.1:${http.port}/mcp` },
        operator: { tools: plan.tools },
        env: { ...process.env, ...OPERATOR_ENV },
        timeoutMs,
      };
      const pinned = now();
      const pin = await candidate.pin(spec);
      const pinMs = elapsedMs(pinned);
      if (!pin.ok) throw new Error(`pin failed: ${pin.detail}`);
      // Read before the clock starts: a server served over HTTP is already running, a broker is not.
      const beforeSpawn = readCpu(undefined, serverPidsOf(ledger));
      const spawned = now();
      channel = await candidate.start(spec);
      const client = new AgentClient(channel, timeoutMs);
      const init = await client.initialize();
      if (init.kind !== 'result') throw new Error(`initialize: ${describeAnswer(init)}`);
      const listing = await client.listTools();
      if (listing.failure !== undefined) throw new Error(`tools/list: ${describeAnswer(listing.failure)}`);
      const listedMs = elapsedMs(spawned);
      const startUpCpu = cpuBetween(beforeSpawn, cpuOf(channel, ledger));
      return new BenchSession(candidate, client, channel, ledger, listedMs, listing.tools.length, pinMs, startUpCpu, cleanup);
    } catch (error) {
      const tail = channel?.stderrTail?.(600).trim();
      await cleanup();
      throw new Error(`${(error as Error).message}${tail ? ` (stderr: ${tail.slice(-600)})` : ''}`);
    }
  }

  /** The name the candidate offers a server's tool under (an aggregator's own prefix, say). */
  offered(tool: string): string {
    return this.candidate.names?.offered(tool) ?? tool;
  }

  /** The kit server's processes, from its launch records: what a broker's own measurement leaves out. */
  serverPids(): number[] {
    return serverPidsOf(this.ledger);
  }

  /** The CPU the broker's processes and the server's spend across `operation` (bench/cpu.ts). */
  async cpuAcross<T>(operation: () => Promise<T>): Promise<{ result: T; cpu: CpuSpent }> {
    const before = cpuOf(this.channel, this.ledger);
    const result = await operation();
    return { result, cpu: cpuBetween(before, cpuOf(this.channel, this.ledger)) };
  }

  close(): Promise<void> {
    return this.cleanup();
  }
}

const serverPidsOf = (ledger: Ledger): number[] => launches(ledger.read()).map((launch) => launch.pid);

/** The CPU of the processes behind the channel and of the kit's, read now. */
function cpuOf(channel: AgentChannel, ledger: Ledger): CpuReading {
  return channel.pid === undefined ? { kind: 'unreadable', why: 'the candidate has no process to read' } : readCpu(channel.pid, serverPidsOf(ledger));
}

/** An answer in a few words, for a note. */
export function describeAnswer(answer: Answer): string {
  switch (answer.kind) {
    case 'result':
      return answer.result.isError === true ? `a tool error: ${answer.raw.slice(0, 200)}` : 'a result';
    case 'error':
      return `error ${answer.error.code}: ${answer.error.message.slice(0, 200)}`;
    case 'malformed':
      return `a malformed answer (${answer.why})`;
    case 'closed':
      return 'the channel closed';
    case 'timeout':
      return 'no answer in time';
  }
}
