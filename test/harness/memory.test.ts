// Memory is measured over the candidate's whole process group, and a candidate that dies while
// measured is reported as dead, never as a machine that cannot measure.

import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { residentGrowthMib } from '../../harness/observe/memory.js';

const leaders: number[] = [];
afterEach(() => {
  for (const pgid of leaders.splice(0)) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
});

type Leader = ChildProcessByStdio<Writable, Readable, null>;

/** A `node -e` process leading a group of its own, once it has said `ready`. */
async function groupLeader(script: string): Promise<{ leader: Leader; pid: number }> {
  const child = spawn(process.execPath, ['-e', script], { detached: true, stdio: ['pipe', 'pipe', 'inherit'] });
  if (child.pid === undefined) throw new Error('the leader did not start');
  leaders.push(child.pid);
  await said(child, 'ready');
  return { leader: child, pid: child.pid };
}

/** Settles once the process writes `word` on its stdout. */
function said(child: Leader, word: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      if (!seen.includes(word)) return;
      child.stdout.off('data', onData);
      resolve();
    };
    child.stdout.on('data', onData);
    child.once('exit', () => reject(new Error(`exited before saying ${word}`)));
  });
}

// The leader holds nothing itself: on a line, it starts a child in its group that allocates
// and touches 50 MiB, says so, and stays.
const LEADER_WITH_HUNGRY_CHILD = `
const { spawn } = require('node:child_process');
const hungry = "const held = Buffer.alloc(50 * 1024 * 1024, 1); process.stdout.write('allocated'); setInterval(() => held[0]++, 1000);";
process.stdin.once('data', () => spawn(process.execPath, ['-e', hungry], { stdio: ['ignore', 'inherit', 'inherit'] }));
process.stdout.write('ready');
`;

describe('residentGrowthMib', () => {
  it("counts memory a child in the candidate's group allocates", async () => {
    const { leader, pid } = await groupLeader(LEADER_WITH_HUNGRY_CHILD);
    const measurement = await residentGrowthMib(pid, async () => {
      const allocated = said(leader, 'allocated');
      leader.stdin.write('go\n');
      await allocated;
      return 'answer';
    });
    expect(measurement.kind).toBe('measured');
    if (measurement.kind !== 'measured') return;
    expect(measurement.result).toBe('answer');
    expect(measurement.growthMib).toBeGreaterThanOrEqual(40);
  });

  it('reports a group leader that exits during the operation as died, with the result', async () => {
    const { leader, pid } = await groupLeader("process.stdin.once('data', () => process.exit(0)); process.stdout.write('ready');");
    const measurement = await residentGrowthMib(pid, async () => {
      const exited = new Promise<void>((resolve) => leader.once('exit', () => resolve()));
      leader.stdin.write('go\n');
      await exited;
      return 'answer';
    });
    expect(measurement).toEqual({ kind: 'died', result: 'answer' });
  });

  it('reports a group that is gone before the operation as died, not unreadable', async (context) => {
    if (!existsSync('/proc/self/status')) return context.skip();
    const leader = spawn(process.execPath, ['-e', ''], { detached: true, stdio: 'ignore' });
    await new Promise<void>((resolve) => leader.once('exit', () => resolve()));
    if (leader.pid === undefined) throw new Error('the leader did not start');
    let ran = false;
    const measurement = await residentGrowthMib(leader.pid, async () => {
      ran = true;
      return 'answer';
    });
    expect(ran).toBe(true);
    expect(measurement).toEqual({ kind: 'died', result: 'answer' });
  });
});
