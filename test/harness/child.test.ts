// A channel says why it closed when the process never started, and keeps the end of what the
// process wrote on stderr after its folder is gone.

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { STDERR_TAIL_BYTES, spawnChannel } from '../../harness/candidates/child.js';
import { scratchFolders } from './scratch.js';

const scratch = scratchFolders('child');

describe('spawnChannel', () => {
  it('reports the spawn error of a command that does not exist', async () => {
    const dir = scratch();
    const channel = spawnChannel('/no/such/command', [], { cwd: dir, stderrFile: join(dir, 'stderr') });
    const status = await channel.exited;
    expect(status.code).toBeNull();
    expect(status.signal).toBeNull();
    expect(status.error).toContain('ENOENT');
    expect(status.error).toContain('/no/such/command');
    await channel.close();
  });

  it('gives no error for a process that ran and exited', async () => {
    const dir = scratch();
    const channel = spawnChannel(process.execPath, ['-e', 'process.exit(3)'], { cwd: dir, stderrFile: join(dir, 'stderr') });
    expect(await channel.exited).toEqual({ code: 3, signal: null });
    await channel.close();
  });

  it('gives what has arrived of a line not yet ended, and nothing once it has ended', async () => {
    const dir = scratch();
    // A whole line, then the start of another, then a wait for its input: the line stays unfinished.
    const script = "process.stdout.write('{\"whole\":1}\\n{\"partial\":\"aaaa'); process.stdin.once('data', () => process.stdout.write('\"}\\n'));";
    const channel = spawnChannel(process.execPath, ['-e', script], { cwd: dir, stderrFile: join(dir, 'stderr') });
    const lines: string[] = [];
    channel.onLine((line) => lines.push(line));
    await vi.waitFor(() => expect(channel.arriving?.()).toBe('{"partial":"aaaa'));
    expect(lines).toEqual(['{"whole":1}']);
    channel.send('go');
    await vi.waitFor(() => expect(lines).toEqual(['{"whole":1}', '{"partial":"aaaa"}']));
    expect(channel.arriving?.()).toBe('');
    await channel.close();
  });

  it("keeps a bounded tail of the process's stderr, past the removal of its folder", async () => {
    const dir = scratch();
    const script = "process.stderr.write('x'.repeat(100 * 1024) + '\\n'); process.stderr.write('LAST-LINE');";
    const channel = spawnChannel(process.execPath, ['-e', script], { cwd: dir, stderrFile: join(dir, 'stderr') });
    await channel.exited;
    await channel.close();
    rmSync(dir, { recursive: true, force: true });
    const tail = channel.stderrTail?.() ?? '';
    expect(tail.endsWith('\nLAST-LINE')).toBe(true);
    expect(Buffer.byteLength(tail)).toBe(4096);
    // What it keeps in memory is bounded whatever a caller asks for.
    expect(Buffer.byteLength(channel.stderrTail?.(1024 * 1024) ?? '')).toBe(STDERR_TAIL_BYTES);
    const short = channel.stderrTail?.(20) ?? '';
    expect(short).toBe(`${'x'.repeat(10)}\nLAST-LINE`);
  });
});
