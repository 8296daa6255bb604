import { readdirSync, readFileSync } from 'node:fs';
import { isAlive } from './processes.js';

/** How often the group is sampled while the operation runs. */
const SAMPLE_MS = 20;

/**
 * What measuring an operation found. `unreadable`: this machine has no /proc to read memory from,
 * so the environment lacks the facility. `died`: the group leader was gone by the end (or before
 * the start), which the caller must judge as a failure, never as an environment that cannot measure.
 */
export type Measurement<T> = { kind: 'measured'; result: T; growthMib: number } | { kind: 'unreadable' } | { kind: 'died'; result: T };

/** A field of /proc/<pid>/status in KiB, or undefined when the process or the field is absent. */
function statusKib(status: string, field: 'VmRSS' | 'VmHWM'): number | undefined {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

function readOrUndefined(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Whether this machine reports resident memory the way the measurement reads it. */
function procReadable(): boolean {
  const status = readOrUndefined('/proc/self/status');
  return readOrUndefined('/proc/self/stat') !== undefined && status !== undefined && statusKib(status, 'VmRSS') !== undefined;
}

interface Member {
  /** pid and start time: a pid reused by a new process is a new member. */
  key: string;
  rssKib: number;
  /** The most the process has ever held, as far as the kernel reports it (VmHWM). */
  peakKib: number;
}

/**
 * The processes of the group and what they hold now. The process group is field 5 of
 * /proc/<pid>/stat, the start time field 22; both are read after the last ')', since the command
 * name before it may hold spaces and parentheses. A process without VmRSS (a zombie) holds nothing.
 */
function groupMembers(pgid: number, excluded: ReadonlySet<number>): Member[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const members: Member[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || excluded.has(Number(entry))) continue;
    const stat = readOrUndefined(`/proc/${entry}/stat`);
    if (stat === undefined) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) !== pgid) continue;
    const status = readOrUndefined(`/proc/${entry}/status`);
    const rssKib = status === undefined ? undefined : statusKib(status, 'VmRSS');
    if (status === undefined || rssKib === undefined) continue;
    members.push({ key: `${entry}:${fields[19]}`, rssKib, peakKib: Math.max(rssKib, statusKib(status, 'VmHWM') ?? 0) });
  }
  return members;
}

/**
 * The highest each member of a group was seen to hold, kept only for members still alive: one
 * that leaves has its peak moved into a single sum, so what is kept is bounded by the group's size.
 */
class GroupPeaks {
  private readonly live = new Map<string, number>();
  private departedKib = 0;

  constructor(
    private readonly pgid: number,
    private readonly excluded: ReadonlySet<number>,
  ) {}

  /** Reads the group once, and returns its members as read. */
  sample(): Member[] {
    const members = groupMembers(this.pgid, this.excluded);
    const seen = new Set<string>();
    for (const { key, peakKib } of members) {
      seen.add(key);
      this.live.set(key, Math.max(this.live.get(key) ?? 0, peakKib));
    }
    for (const [key, peakKib] of this.live) {
      if (seen.has(key)) continue;
      this.departedKib += peakKib;
      this.live.delete(key);
    }
    return members;
  }

  /** Every member's own peak added up, though they need not have peaked together. */
  totalKib(): number {
    let total = this.departedKib;
    for (const peakKib of this.live.values()) total += peakKib;
    return total;
  }
}

/**
 * Measures how far the resident memory of process group `pgid` rose across an operation: the sum
 * of each member's peak (VmHWM, sampled every SAMPLE_MS, and once more at the end) less the sum of
 * their resident sizes before. A broker may do its work in a child, so the whole group counts.
 * That over-states growth when an earlier peak was higher, or members peaked at different times,
 * and a child that comes and goes between two samples is missed: the first errs towards failing,
 * and the second is bounded by the sampling period, never a sleep the verdict waits on.
 * `exclude` leaves out members by pid: a server a broker started in its own group, when what is
 * measured is the broker alone (the benchmark's).
 */
export async function residentGrowthMib<T>(pgid: number, operation: () => Promise<T>, options: { exclude?: readonly number[] } = {}): Promise<Measurement<T>> {
  if (!procReadable()) return { kind: 'unreadable' };
  const peaks = new GroupPeaks(pgid, new Set(options.exclude));
  const before = peaks.sample();
  // /proc answers, so a group with nothing in it is a candidate already gone, not a machine that
  // cannot measure.
  if (before.length === 0 || !isAlive(pgid)) return { kind: 'died', result: await operation() };
  const beforeKib = before.reduce((sum, member) => sum + member.rssKib, 0);
  const sampler = setInterval(() => peaks.sample(), SAMPLE_MS);
  sampler.unref();
  let result: T;
  try {
    result = await operation();
  } finally {
    clearInterval(sampler);
  }
  if (!isAlive(pgid)) return { kind: 'died', result };
  peaks.sample();
  return { kind: 'measured', result, growthMib: Math.max(0, peaks.totalKib() - beforeKib) / 1024 };
}
