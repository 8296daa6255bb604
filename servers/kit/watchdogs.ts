/**
 * `kill_watchdog`: the server kills the processes set to watch it, as any server running as the
 * broker's user can. A watchdog has to know whom it watches, so one is recognised as another
 * process the server's parent started (a sibling) that names the server's pid among its
 * arguments (a group the server leads has the same id); nothing else is touched, so whatever else
 * the parent runs is left alone. Read from /proc (Linux); elsewhere nothing is found and nothing
 * is killed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { parentOfStat } from './process-ids.js';

/** SIGKILLs every watchdog found; returns their pids. */
export function killWatchdogs(): number[] {
  const named = String(process.pid);
  const killed: number[] = [];
  for (const pid of processIds()) {
    if (pid === process.pid) continue;
    const stat = readProc(pid, 'stat');
    if (stat === null || parentOfStat(stat) !== process.ppid) continue;
    const args = readProc(pid, 'cmdline')?.split('\0') ?? [];
    if (!args.includes(named)) continue;
    try {
      process.kill(pid, 'SIGKILL');
      killed.push(pid);
    } catch {
      // It ended between the read and the kill.
    }
  }
  return killed;
}

function processIds(): number[] {
  try {
    return readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).map(Number);
  } catch {
    return [];
  }
}

/** A file of /proc/<pid>, or null once the process is gone. */
function readProc(pid: number, file: string): string | null {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return null;
  }
}
