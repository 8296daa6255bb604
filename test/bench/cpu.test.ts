/**
 * The bench's CPU reader (bench/cpu.ts): /proc/<pid>/stat parsed after the command's last ')',
 * processes sorted into the broker's and the server's by the tree, the ticks spent between two
 * readings by process, and the figures the report shows. On a made-up /proc tree, and on this
 * process's own /proc entry against process.cpuUsage().
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../temp-dirs.js';
import { clockTicksPerSecond, cpuBetween, cpuInAll, cpuPerCall, parseStat, partition, readCpu, readProcessTable, type ProcessEntry } from '../../bench/cpu.js';

/** A /proc/<pid>/stat line: the fields the reader uses set, every other one zero. */
function statLine(pid: number, command: string, ppid: number, pgrp: number, times: [number, number, number, number], start = 1000): string {
  // Fields 3.. after the command: state, ppid, pgrp, session, tty, tpgid, flags, 4 fault counts, utime, stime, cutime, cstime, priority, nice, threads, itrealvalue, starttime, vsize...
  const after = ['S', ppid, pgrp, pgrp, 0, -1, 0, 0, 0, 0, 0, ...times, 20, 0, 1, 0, start, 1000, 100];
  return `${pid} (${command}) ${after.join(' ')}\n`;
}

const entry = (pid: number, ppid: number, pgrp: number, ticks = 0, start = '1000'): ProcessEntry => ({ pid, ppid, pgrp, start, ticks });

describe('the /proc reader', () => {
  const procDir = tempDirs('bench-proc-');

  /** A made-up /proc holding the given stat lines by pid, and a file that is no process. */
  async function fakeProc(stats: Record<number, string>): Promise<string> {
    const proc = procDir();
    for (const [pid, line] of Object.entries(stats)) {
      await mkdir(join(proc, pid));
      await writeFile(join(proc, pid, 'stat'), line);
    }
    await writeFile(join(proc, 'uptime'), '1.00 1.00\n');
    return proc;
  }

  it('reads the fields after the last parenthesis, whatever the command name holds, and adds the four times', () => {
    expect(parseStat(42, statLine(42, 'node ) (x 1 2', 7, 40, [10, 5, 2, 1], 555))).toEqual({ pid: 42, ppid: 7, pgrp: 40, start: '555', ticks: 18 });
    expect(parseStat(42, '42 (cut) S 1 2')).toBeUndefined();
  });

  it("sorts processes into the broker's (descendants and group) and the server's (the kit's and its descendants)", () => {
    const table = [
      entry(100, 1, 100), // the broker the adapter started
      entry(101, 100, 100), // its sh
      entry(102, 101, 102), // the kit server, in a group of its own (setsid)
      entry(103, 102, 102), // a child of the server
      entry(104, 100, 104), // a watcher the broker started in its own group
      entry(105, 1, 100), // reparented, still in the broker's group
      entry(200, 1, 200), // someone else's
    ];
    const { broker, server } = partition(table, 100, [102]);
    expect(broker.map(({ pid }) => pid)).toEqual([100, 101, 104, 105]);
    expect(server.map(({ pid }) => pid)).toEqual([102, 103]);
    // direct: the process the adapter started is the server, so nothing is the broker's.
    expect(partition(table, 102, [102]).broker).toEqual([]);
    // Before the broker starts, only the server is read.
    expect(partition(table, undefined, [102]).broker).toEqual([]);
  });

  it('counts the ticks each process spent between two readings: a new process whole, a gone one not past the first', async () => {
    const before = await fakeProc({
      100: statLine(100, 'node', 1, 100, [50, 10, 0, 0]),
      101: statLine(101, 'helper', 100, 100, [5, 0, 0, 0]),
      102: statLine(102, 'node', 100, 102, [30, 5, 0, 0]),
      300: statLine(300, 'node', 100, 100, [9, 0, 0, 0], 2000),
    });
    const after = await fakeProc({
      // 70 more, and the helper it reaped (7 in cutime).
      100: statLine(100, 'node', 1, 100, [110, 20, 7, 0]),
      102: statLine(102, 'node', 100, 102, [60, 15, 0, 0]),
      // pid 300 reused by a new process: counted whole, not against the old one's 9.
      300: statLine(300, 'other', 100, 100, [4, 0, 0, 0], 3000),
      // born in between
      301: statLine(301, 'new', 100, 100, [3, 1, 0, 0]),
    });
    const spent = cpuBetween(readCpu(100, [102], before), readCpu(100, [102], after));
    expect(spent).toEqual({ kind: 'spent', brokerTicks: 77 + 4 + 4, serverTicks: 40, ticksPerSecond: clockTicksPerSecond() });
  });

  it('has no broker CPU when no process is the broker, and no CPU at all without a /proc', async () => {
    const proc = await fakeProc({ 102: statLine(102, 'node', 1, 102, [30, 5, 0, 0]) });
    expect(cpuBetween(readCpu(102, [102], proc), readCpu(102, [102], proc))).not.toHaveProperty('brokerTicks');
    expect(readProcessTable(join(proc, 'nowhere'))).toBeUndefined();
    const missing = readCpu(100, [], join(proc, 'nowhere'));
    expect(missing).toMatchObject({ kind: 'unreadable' });
    expect(cpuBetween(missing, readCpu(100, [], proc))).toMatchObject({ kind: 'unreadable', why: expect.stringContaining('no ') });
  });

  it("reads this process's own CPU as process.cpuUsage() does, to a tick or two", () => {
    const perSecond = clockTicksPerSecond();
    expect(perSecond).toBeGreaterThan(0);
    const before = readCpu(process.pid, []);
    const usage = process.cpuUsage();
    let spin = 0;
    const until = Date.now() + 300;
    while (Date.now() < until) spin += Math.sqrt(spin + 1);
    const used = process.cpuUsage(usage);
    const spent = cpuBetween(before, readCpu(process.pid, []));
    expect(spin).toBeGreaterThan(0);
    expect(spent.kind).toBe('spent');
    if (spent.kind !== 'spent') return;
    const procMs = (spent.brokerTicks! * 1000) / perSecond!;
    const usageMs = (used.user + used.system) / 1000;
    expect(procMs).toBeGreaterThan(0);
    // Two readings each cut to a whole tick, and a little read around them.
    expect(Math.abs(procMs - usageMs)).toBeLessThanOrEqual((2 * 1000) / perSecond! + 0.1 * usageMs);
  });
});

describe('the figures shown', () => {
  const spent = { kind: 'spent', brokerTicks: 40, serverTicks: 60, ticksPerSecond: 100 } as const;

  it('gives microseconds per call, and says when a tick is more than 2% of the broker measure', () => {
    // 400 ms over 2,000 calls: 200 µs a call; 600 ms: 300.
    expect(cpuPerCall(spent, 2000)).toEqual({ broker: 200, server: 300, notes: ['broker CPU of 40 ticks over 2000 calls: one tick is 2.5% of it (more --calls measure finer)'] });
    expect(cpuPerCall({ ...spent, brokerTicks: 50 }, 2000).notes).toEqual([]);
  });

  it('gives milliseconds in all for a start, and nothing for a side not read', () => {
    expect(cpuInAll(spent)).toEqual({ broker: 400, server: 600, notes: [] });
    expect(cpuInAll({ kind: 'spent', serverTicks: 3, ticksPerSecond: 100 })).toEqual({ server: 30, notes: [] });
    expect(cpuInAll({ kind: 'unreadable', why: 'no /proc' })).toEqual({ notes: ['CPU not measured: no /proc'] });
  });
});
