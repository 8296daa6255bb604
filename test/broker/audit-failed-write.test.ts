// The audit trail after a write that failed part-way (src/session/audit.ts): what the OS did not
// take is written first at the next flush, byte for byte, so the chain still verifies, even when
// the cut fell inside a character and more records were made before the retry. writeSync is
// replaced (vi.mock) by one that takes only part of what it is given once, then refuses.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';

/** Set by a test: the next write takes this many bytes, and the one after it throws. */
const cut: { bytes?: number } = {};

vi.mock('node:fs', async (original) => {
  const fs = await original<typeof import('node:fs')>();
  let refuseNext = false;
  const writeSync = (fd: number, buffer: Uint8Array, offset = 0, length = buffer.length - offset): number => {
    if (refuseNext) {
      refuseNext = false;
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    }
    if (cut.bytes !== undefined) {
      length = Math.min(length, cut.bytes);
      cut.bytes = undefined;
      refuseNext = true;
    }
    return fs.writeSync(fd, buffer, offset, length);
  };
  return { ...fs, writeSync, default: { ...fs, writeSync } };
});

const { AuditLog, verifyAudit } = await import('../../src/session/audit.js');
const { NOW } = await import('./builders.js');

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it('writes what a failed write left first, byte for byte, when the cut fell inside a character and records followed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'audit-failed-write-'));
  dirs.push(dir);
  const path = join(dir, 'audit.jsonl');
  const log = await AuditLog.open(path, () => NOW, undefined);
  const entry = { decision: 'call_refused', tool: 'write_note', name: 'save_note', agent: 'writer', code: 'policy_denied', toolExists: true, call: null, contract: null } as const;
  // "é" is two bytes in UTF-8; the write is cut between them.
  const detail = 'café au lait';
  log.record({ ...entry, detail });
  cut.bytes = (log as unknown as { unwritten: string[] }).unwritten.join('').indexOf('é') + 1;
  expect(() => log.flush()).toThrow('ENOSPC');
  log.record({ ...entry, detail: 'the next decision' });
  log.close();
  const text = readFileSync(path, 'utf8');
  expect(text).toContain(detail);
  expect(text).not.toContain('\uFFFD');
  expect(await verifyAudit(path)).toMatchObject({ ok: true });
});
