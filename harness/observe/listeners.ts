import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * The TCP sockets a process group listens on, read from /proc as the kernel keeps them: which
 * address each is bound to is known without ever connecting to it (a candidate bound to every
 * interface is only inspected, never reached but on loopback).
 */
export interface Listener {
  /** The bound address as text: `127.0.0.1`, `0.0.0.0`, `::`, `::1`, `::ffff:127.0.0.1`. */
  address: string;
  port: number;
  pid: number;
}

/** The socket state /proc/net/tcp writes for LISTEN. */
const LISTEN = '0A';

/** Pids whose process group is `pgid`, from each /proc/PID/stat (field 5, after the command's parenthesis). */
function groupPids(pgid: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid) pids.push(Number(entry));
    } catch {
      // The process ended while the table was read.
    }
  }
  return pids;
}

/** The socket inodes a process holds open. */
function socketInodes(pid: number): Set<string> {
  const inodes = new Set<string>();
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return inodes;
  }
  for (const fd of fds) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match) inodes.add(match[1]!);
    } catch {
      // Closed while read.
    }
  }
  return inodes;
}

/** A /proc/net address: hex words, each in host (little-endian) byte order. */
export function decodeAddress(hex: string): string {
  const bytes = (word: string) => [6, 4, 2, 0].map((at) => parseInt(word.slice(at, at + 2), 16));
  if (hex.length === 8) return bytes(hex).join('.');
  const all = [0, 8, 16, 24].flatMap((at) => bytes(hex.slice(at, at + 8)));
  const groups = [0, 2, 4, 6, 8, 10, 12, 14].map((at) => ((all[at]! << 8) | all[at + 1]!).toString(16));
  if (groups.slice(0, 5).every((group) => group === '0') && groups[5] === 'ffff') return `::ffff:${all.slice(12).join('.')}`;
  // The shortest form for the addresses that matter here; any other is written whole.
  const text = groups.join(':');
  if (text === '0:0:0:0:0:0:0:0') return '::';
  if (text === '0:0:0:0:0:0:0:1') return '::1';
  return text;
}

/** Whether a bound address admits only this machine. */
export function isLoopback(address: string): boolean {
  return address === '::1' || /^(::ffff:)?127\./.test(address);
}

/** Listening sockets in a /proc/net/tcp or tcp6 table, by inode. */
export function listeningIn(table: string): Map<string, { address: string; port: number }> {
  const found = new Map<string, { address: string; port: number }>();
  for (const line of table.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 10 || fields[3] !== LISTEN) continue;
    const [address, port] = fields[1]!.split(':');
    found.set(fields[9]!, { address: decodeAddress(address!), port: parseInt(port!, 16) });
  }
  return found;
}

/**
 * Every listening TCP socket some process of group `pgid` holds, or null when /proc cannot tell
 * (not Linux). Each process's tables are its own network namespace's.
 */
export function groupListeners(pgid: number): Listener[] | null {
  try {
    readFileSync('/proc/self/net/tcp');
  } catch {
    return null;
  }
  const listeners: Listener[] = [];
  for (const pid of groupPids(pgid)) {
    const inodes = socketInodes(pid);
    if (inodes.size === 0) continue;
    for (const table of ['tcp', 'tcp6']) {
      let text: string;
      try {
        text = readFileSync(`/proc/${pid}/net/${table}`, 'utf8');
      } catch {
        continue;
      }
      for (const [inode, bound] of listeningIn(text)) if (inodes.has(inode)) listeners.push({ ...bound, pid });
    }
  }
  return listeners;
}
