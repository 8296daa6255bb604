// Reading a trail's end before appending (src/session/audit.ts, verifyEnd) when the OS gives less
// than asked: a short read is read on from where it stopped, and a trail that ends before the size
// it had (it shrank while it was read) is refused rather than read forever. readSync is replaced
// (vi.mock) by one that gives at most a set number of bytes a call, or nothing.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it, vi } from 'vitest';
import { tempDirs } from '../temp-dirs.js';

/** Set by a test: the most bytes each read of the trail gives; 0 gives none. */
const reads: { most?: number } = {};

vi.mock('node:fs', async (original) => {
  const fs = await original<typeof import('node:fs')>();
  const readSync = (fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number =>
    reads.most === undefined ? fs.readSync(fd, buffer, offset, length, position) : reads.most === 0 ? 0 : fs.readSync(fd, buffer, offset, Math.min(length, reads.most), position);
  return { ...fs, readSync, default: { ...fs, readSync } };
});

const { AuditLog, CHECKED_END_BYTES, verifyEnd } = await import('../../src/session/audit.js');
const { NOW, auditEntry } = await import('./builders.js');

const made = tempDirs('broker-audit-end-read-');

async function trail(): Promise<string> {
  const path = join(made(), 'audit.jsonl');
  writeFileSync(path, '');
  const log = await AuditLog.open(path, () => NOW, undefined);
  for (let i = 0; i < 3; i++) log.record(auditEntry({ detail: `call ${i}` }));
  log.close();
  return path;
}

it('reads on after a short read, to the same verdict', async () => {
  const path = await trail();
  const whole = verifyEnd(path, CHECKED_END_BYTES);
  reads.most = 7;
  try {
    expect(verifyEnd(path, CHECKED_END_BYTES)).toEqual(whole);
    expect(whole).toMatchObject({ ok: true, last: { seq: 3 } });
  } finally {
    reads.most = undefined;
  }
});

it('refuses a trail that ends before the size it had, rather than reading it forever', async () => {
  const path = await trail();
  reads.most = 0;
  try {
    expect(() => verifyEnd(path, CHECKED_END_BYTES)).toThrow(`cannot read the audit trail ${path}: it ended while it was read`);
  } finally {
    reads.most = undefined;
  }
});
