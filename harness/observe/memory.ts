import { readFileSync } from 'node:fs';

/** A field of /proc/<pid>/status in KiB, or undefined when the process or the field is absent. */
function statusKib(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/**
 * Measures how far a process's resident memory rose across an operation: its peak afterwards
 * (VmHWM) less its resident size before. That over-states growth when an earlier peak was higher,
 * which errs towards failing, never towards a pass.
 */
export async function residentGrowthMib<T>(pid: number, operation: () => Promise<T>): Promise<{ result: T; growthMib: number } | undefined> {
  const before = statusKib(pid, 'VmRSS');
  if (before === undefined) return undefined;
  const result = await operation();
  const peak = statusKib(pid, 'VmHWM');
  if (peak === undefined) return undefined;
  return { result, growthMib: Math.max(0, peak - before) / 1024 };
}
