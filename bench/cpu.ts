import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * The CPU time a broker's processes and its server's spend, read from /proc: for each process,
 * utime + stime + cutime + cstime of /proc/<pid>/stat (fields 14 to 17, in clock ticks), so that a
 * child the process started and reaped inside the window counts too. Whose a process is follows
 * the tree: the broker's are the process the adapter started (a group leader), every descendant
 * of it by ppid and every member of its group; the server's are the kit's processes (their pids
 * from the kit's launch records) and their descendants, left out of the broker's even when the
 * broker started them. Threads are counted by the kernel in their process's fields.
 */

/** One process as /proc/<pid>/stat gives it. */
export interface ProcessEntry {
  pid: number;
  ppid: number;
  pgrp: number;
  /** Its start time (field 22): a pid reused by another process is another process. */
  start: string;
  /** utime + stime + cutime + cstime, in clock ticks. */
  ticks: number;
}

/** CPU read at one moment, in ticks, by process (pid and start time), for the broker's and the server's. */
export type CpuReading = { kind: 'read'; broker: ReadonlyMap<string, number>; server: ReadonlyMap<string, number> } | { kind: 'unreadable'; why: string };

/** CPU spent between two readings. `broker` is undefined when no process was the broker's (direct's). */
export type CpuSpent = { kind: 'spent'; brokerTicks?: number; serverTicks: number; ticksPerSecond: number } | { kind: 'unreadable'; why: string };

/** One entry of /proc/<pid>/stat, or undefined when it is gone or not a process's. */
export function parseStat(pid: number, text: string): ProcessEntry | undefined {
  // The command name (field 2) may hold spaces and parentheses: the fields are read after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).trim().split(' ');
  // Fields 3 (state) to 22 (starttime) are indices 0 to 19 here.
  if (fields.length < 20) return undefined;
  const [ppid, pgrp] = [Number(fields[1]), Number(fields[2])];
  const ticks = fields.slice(11, 15).reduce((sum, field) => sum + Number(field), 0);
  if (!Number.isSafeInteger(ppid) || !Number.isSafeInteger(pgrp) || !Number.isSafeInteger(ticks)) return undefined;
  return { pid, ppid, pgrp, start: fields[19]!, ticks };
}

/** Every process /proc lists now; undefined when there is no /proc to read (not Linux). */
export function readProcessTable(proc = '/proc'): ProcessEntry[] | undefined {
  let entries: string[];
  try {
    entries = readdirSync(proc);
  } catch {
    return undefined;
  }
  const table: ProcessEntry[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let text: string;
    try {
      text = readFileSync(`${proc}/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone since the listing
    }
    const parsed = parseStat(Number(entry), text);
    if (parsed !== undefined) table.push(parsed);
  }
  return table;
}

/** The pids of `roots` and of all their descendants by ppid. */
function descendants(table: readonly ProcessEntry[], roots: Iterable<number>): Set<number> {
  const children = new Map<number, number[]>();
  for (const { pid, ppid } of table) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const found = new Set<number>();
  const pending = [...roots];
  while (pending.length > 0) {
    const pid = pending.pop()!;
    if (found.has(pid)) continue;
    found.add(pid);
    pending.push(...(children.get(pid) ?? []));
  }
  return found;
}

/**
 * The table split into the broker's processes and the server's (see above). `root` undefined (no
 * broker started yet) leaves the broker with none.
 */
export function partition(table: readonly ProcessEntry[], root: number | undefined, serverPids: readonly number[]): { broker: ProcessEntry[]; server: ProcessEntry[] } {
  const server = descendants(table, serverPids);
  const broker = root === undefined ? new Set<number>() : descendants(table, [root]);
  return {
    broker: table.filter(({ pid, pgrp }) => (broker.has(pid) || pgrp === root) && !server.has(pid)),
    server: table.filter(({ pid }) => server.has(pid)),
  };
}

const byProcess = (entries: readonly ProcessEntry[]) => new Map(entries.map(({ pid, start, ticks }) => [`${pid}:${start}`, ticks]));

/** Reads the broker's and the server's CPU now. */
export function readCpu(root: number | undefined, serverPids: readonly number[], proc = '/proc'): CpuReading {
  const table = readProcessTable(proc);
  if (table === undefined) return { kind: 'unreadable', why: `there is no ${proc} to read processes from on this machine` };
  const { broker, server } = partition(table, root, serverPids);
  return { kind: 'read', broker: byProcess(broker), server: byProcess(server) };
}

/**
 * Ticks spent from `before` to `after` by the processes read at `after`: the whole of those born
 * in between. A process gone by `after` is not counted past `before`, unless its parent, reaped it
 * and is counted itself (cutime, cstime).
 */
function ticksBetween(before: ReadonlyMap<string, number>, after: ReadonlyMap<string, number>): number {
  let spent = 0;
  for (const [process, ticks] of after) spent += ticks - (before.get(process) ?? 0);
  return spent;
}

let ticksPerSecond: number | undefined;

/** CLK_TCK, the unit of /proc's times (getconf; 100 on every common Linux); undefined when it cannot be learnt. */
export function clockTicksPerSecond(): number | undefined {
  if (ticksPerSecond !== undefined) return ticksPerSecond;
  try {
    const text = execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8', timeout: 5_000, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const value = Number(text);
    if (/^\d+$/.test(text) && value > 0) ticksPerSecond = value;
  } catch {
    // No getconf: the unit is unknown, so nothing is measured.
  }
  return ticksPerSecond;
}

/** The CPU spent between two readings. */
export function cpuBetween(before: CpuReading, after: CpuReading): CpuSpent {
  if (before.kind === 'unreadable') return before;
  if (after.kind === 'unreadable') return after;
  const perSecond = clockTicksPerSecond();
  if (perSecond === undefined) return { kind: 'unreadable', why: 'getconf CLK_TCK gave no clock tick, the unit of /proc times' };
  return {
    kind: 'spent',
    ...(after.broker.size === 0 ? {} : { brokerTicks: ticksBetween(before.broker, after.broker) }),
    serverTicks: ticksBetween(before.server, after.server),
    ticksPerSecond: perSecond,
  };
}


/** CPU spent as the report shows it: the broker's and the server's, each absent when not measured, and notes on how. */
export interface CpuFigures {
  broker?: number;
  server?: number;
  notes: string[];
}

/** Below this many ticks a per-call measure is noted as coarse: one tick is then more than 2% of it. */
export const FINE_TICKS = 50;

function figures(spent: CpuSpent, perTick: (ticksPerSecond: number) => number, coarse?: (ticks: number) => string): CpuFigures {
  if (spent.kind === 'unreadable') return { notes: [`CPU not measured: ${spent.why}`] };
  const scale = perTick(spent.ticksPerSecond);
  const { brokerTicks, serverTicks } = spent;
  const notes = coarse !== undefined && brokerTicks !== undefined && brokerTicks < FINE_TICKS ? [coarse(brokerTicks)] : [];
  return { ...(brokerTicks === undefined ? {} : { broker: brokerTicks * scale }), server: serverTicks * scale, notes };
}

/** Microseconds per call over `calls` calls, with a note when the broker's measure is coarse. */
export function cpuPerCall(spent: CpuSpent, calls: number): CpuFigures {
  const coarse = (ticks: number) => `broker CPU of ${ticks} ticks over ${calls} calls: one tick is ${(100 / Math.max(ticks, 1)).toFixed(1)}% of it (more --calls measure finer)`;
  return figures(spent, (ticksPerSecond) => 1e6 / ticksPerSecond / calls, coarse);
}

/** Milliseconds in all (a start, read once, in whole ticks). */
export function cpuInAll(spent: CpuSpent): CpuFigures {
  return figures(spent, (ticksPerSecond) => 1e3 / ticksPerSecond);
}
