import { readdirSync, readFileSync } from 'node:fs';

/**
 * Whether a process is alive, from /proc. A zombie counts as dead: it runs nothing, and a
 * reparented zombie may wait for a reaper the harness does not control.
 */
export function isAlive(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state !== 'Z' && state !== 'X';
}

/**
 * Waits until none of the pids is alive, or the deadline passes; returns those still alive.
 * Polling here observes an outcome, it does not trigger one, so it cannot make a verdict flaky
 * in the passing direction: a process that outlives the deadline is reported.
 */
export async function survivorsAfter(pids: readonly number[], deadlineMs: number): Promise<number[]> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const alive = pids.filter(isAlive);
    if (alive.length === 0 || Date.now() >= until) return alive;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Containment of last resort: the harness kills whatever the scenario left behind. */
export function killAll(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/** The live processes whose process group is `pgid`, from /proc, each with its command line. */
export function groupMembers(pgid: number): Array<{ pid: number; command: string }> {
  const members: Array<{ pid: number; command: string }> = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone since the listing
    }
    // Fields after the command's closing parenthesis: state, ppid, pgrp, ...
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) !== pgid || state === 'Z' || state === 'X') continue;
    let command = '';
    try {
      command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    } catch {
      // gone since the stat
    }
    members.push({ pid: Number(entry), command });
  }
  return members;
}
