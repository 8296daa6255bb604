// Process groups for the watcher's tests: a group of sleepers to watch, its live members and its
// watchers read from /proc, and every group a test made killed after it.

import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const groups: number[] = [];

/** A process group of its own, led by a sleeper, with a second sleeper in it; its pgid. */
export function sleepingGroup(): number {
  const leader = spawn('/bin/sh', ['-c', 'sleep 300 & exec sleep 300'], { detached: true, stdio: 'ignore' });
  leader.unref();
  groups.push(leader.pid!);
  return leader.pid!;
}

/** The pids whose /proc `file` (read as text) `holds`; a process gone while the directory was read is skipped. */
function pidsWhere(file: string, holds: (text: string) => boolean): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((pid) => {
      try {
        return holds(readFileSync(`/proc/${pid}/${file}`, 'utf8')) ? [Number(pid)] : [];
      } catch {
        return [];
      }
    });
}

/** The pids in group `pgid` that are alive (a zombie is not), read from /proc. */
export function liveMembers(pgid: number): number[] {
  return pidsWhere('stat', (stat) => {
    // After the command's closing parenthesis: state, ppid, pgrp.
    const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(group) === pgid && state !== 'Z' && state !== 'X';
  });
}

/** The pids of the live group watchers (src/upstream/watcher.ts) watching group `pgid`, read from /proc. */
export function watchersOf(pgid: number): number[] {
  return pidsWhere('cmdline', (cmdline) => {
    // sh -c SCRIPT gauntlet-group-watcher PGID: the last two arguments name it and its group.
    const args = cmdline.split('\0').slice(-3, -1);
    return args[0] === 'gauntlet-group-watcher' && args[1] === String(pgid);
  });
}

/** Kills every group a test made: an afterEach hook. */
export function killGroups(): void {
  for (const pgid of groups.splice(0)) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // Already gone, as the test wanted.
    }
  }
}
