/**
 * The server's own process group and session, as the kernel reports them. The harness compares
 * them with the broker's to see whether the broker gave its server a group of its own; Node has
 * no getpgid, so they are read from /proc (Linux). Elsewhere they are unknown, never guessed.
 * Another process's parent is read the same way (`kill_watchdog`).
 */
import { readFileSync } from 'node:fs';

export interface ProcessIds {
  /** Process group id, or null where /proc cannot tell. */
  pgid: number | null;
  /** Session id, or null where /proc cannot tell. */
  sid: number | null;
}

/** Reads fields 5 (pgrp) and 6 (session) of /proc/self/stat. */
export function ownProcessIds(): ProcessIds {
  let stat: string;
  try {
    stat = readFileSync('/proc/self/stat', 'utf8');
  } catch {
    return { pgid: null, sid: null };
  }
  return parseStat(stat);
}

/**
 * The fields after the command name: state, ppid, pgrp, session, and on. The command name
 * (field 2) is in parentheses and may itself hold spaces and parentheses, so they are counted
 * from the last ')'.
 */
function fieldsAfterName(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

const numberField = (text: string | undefined): number | null => (text !== undefined && /^\d+$/.test(text) ? Number(text) : null);

/** Fields 5 (pgrp) and 6 (session) of a /proc/<pid>/stat line. */
export function parseStat(stat: string): ProcessIds {
  const fields = fieldsAfterName(stat);
  return { pgid: numberField(fields[2]), sid: numberField(fields[3]) };
}

/** Field 4 (ppid) of a /proc/<pid>/stat line, or null where it cannot be read. */
export function parentOfStat(stat: string): number | null {
  return numberField(fieldsAfterName(stat)[1]);
}
