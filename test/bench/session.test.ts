/**
 * The bench's CPU measure on real candidates (bench/session.ts, bench/workloads/calls.ts): a
 * passthrough session's broker and server are told apart in the process tree, and direct, which
 * has no broker, has only its server's CPU. A few hundred calls each, bounded.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { partition, readProcessTable } from '../../bench/cpu.js';
import { BenchSession, type ServerPlan } from '../../bench/session.js';
import { CHEAP_TOOL, HUNG_TOOL, sequentialCalls } from '../../bench/workloads/calls.js';
import { directCandidate } from '../../harness/candidates/direct.js';
import { passthroughCandidate } from '../../harness/candidates/passthrough.js';
import type { Candidate } from '../../harness/candidates/types.js';

const PLAN: ServerPlan = { knobs: { hang_on_call: HUNG_TOOL }, tools: { [CHEAP_TOOL]: { effect: 'read_only' } } };
const TIMEOUT_MS = 30_000;

describe('the CPU a session reads', () => {
  const open: BenchSession[] = [];
  afterEach(async () => {
    for (const session of open.splice(0)) await session.close();
  });
  async function session(candidate: Candidate): Promise<BenchSession> {
    const opened = await BenchSession.open(candidate, PLAN, TIMEOUT_MS);
    open.push(opened);
    return opened;
  }

  it("reads passthrough's broker apart from its server, from spawn to listed and across warm calls", async () => {
    const opened = await session(passthroughCandidate());
    // The kit is passthrough's child, yet it is the server's and not the broker's.
    const [server] = opened.serverPids();
    const table = readProcessTable()!;
    expect(table.find(({ pid }) => pid === server)?.ppid).toBe(opened.channel.pid);
    const { broker, server: served } = partition(table, opened.channel.pid, opened.serverPids());
    expect(broker.map(({ pid }) => pid)).toContain(opened.channel.pid);
    expect(broker.map(({ pid }) => pid)).not.toContain(server);
    expect(served.map(({ pid }) => pid)).toEqual([server]);
    // Each started a Node process: tens of milliseconds, several ticks, each.
    expect(opened.startUpCpu).toMatchObject({ kind: 'spent', brokerTicks: expect.any(Number), serverTicks: expect.any(Number) });
    if (opened.startUpCpu.kind !== 'spent') return;
    expect(opened.startUpCpu.brokerTicks).toBeGreaterThan(0);
    expect(opened.startUpCpu.serverTicks).toBeGreaterThan(0);
    const { measured, notes } = await sequentialCalls(opened, { calls: 50, budgetMs: TIMEOUT_MS }, 300, TIMEOUT_MS);
    expect(notes).toEqual([]);
    expect(measured).toMatchObject({ calls: 300, cpu: { kind: 'spent', brokerTicks: expect.any(Number), serverTicks: expect.any(Number) } });
  });

  it('reads no broker for direct: the process it started is the server', async () => {
    const opened = await session(directCandidate());
    expect(opened.startUpCpu).toMatchObject({ kind: 'spent', serverTicks: expect.any(Number) });
    expect(opened.startUpCpu).not.toHaveProperty('brokerTicks');
    const { measured } = await sequentialCalls(opened, { calls: 50, budgetMs: TIMEOUT_MS }, 300, TIMEOUT_MS);
    expect(measured?.cpu).toMatchObject({ kind: 'spent', serverTicks: expect.any(Number) });
    expect(measured?.cpu).not.toHaveProperty('brokerTicks');
  });
});
