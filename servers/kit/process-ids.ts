/**
 * The server's own process group and session, as the kernel reports them. The harness compares
 * them with the broker's to see whether the broker gave its server a group of its own; Node has
 * no getpgid, so they are read from /proc (Linux). Elsewhere they are unknown, never guessed.
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
 * The command name (field 2) is in parentheses and may itself hold spaces and parentheses, so
 * the fields are counted from the last ')': state, ppid, pgrp, session.
 */
export function parseStat(stat: string): ProcessIds {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const number = (text: string | undefined) => (text !== undefined && /^\d+$/.test(text) ? Number(text) : null);
  return { pgid: number(fields[2]), sid: number(fields[3]) };
}
