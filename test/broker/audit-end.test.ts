// Before it appends to an existing trail the broker checks only the trail's end (the records that
// begin in its last CHECKED_END_BYTES, and at least the last one): a broker's start must not grow
// with its trail. audit-verify still checks the whole chain.

import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuditLog, CHECKED_END_BYTES, verifyAudit, verifyEnd } from '../../src/session/audit.js';
import { ConfigError } from '../../src/errors.js';
import { NOW, auditEntry } from './builders.js';
import { tempDirs } from '../temp-dirs.js';

const made = tempDirs('broker-audit-end-');

/** Appends one record per detail through the broker's own trail; returns the trail's lines. */
async function append(path: string, details: readonly (string | null)[], endBytes = CHECKED_END_BYTES): Promise<string[]> {
  const log = await AuditLog.open(path, () => NOW, undefined, endBytes);
  for (const detail of details) log.record(auditEntry({ detail }));
  log.close();
  return readFileSync(path, 'utf8').trimEnd().split('\n');
}

const trail = () => join(made(), 'audit.jsonl');
/** Bytes that reach one byte into the record before the last `count`: the check begins with those `count`. */
const endOf = (lines: readonly string[], count: number) => Buffer.byteLength(lines.slice(-count).join('\n') + '\n') + 1;
const numbered = (count: number) => Array.from({ length: count }, (_, i) => `call ${i + 1}`);

describe('the end of an existing trail', () => {
  it('is checked on its own: a trail whose first megabytes are not records at all still takes new records', async () => {
    const path = trail();
    const lines = await append(path, numbered(20));
    writeFileSync(path, `${'not a record\n'.repeat(200_000)}${lines.join('\n')}\n`);
    const after = await append(path, ['after'], endOf(lines, 5));
    expect(JSON.parse(after.at(-1)!)).toMatchObject({ seq: 21, detail: 'after' });
    // The whole chain is audit-verify's to check: it finds what the broker did not read.
    expect(await verifyAudit(path)).toMatchObject({ ok: false, seq: 1 });
  });

  it('goes on with the chain from its last record, so an untouched trail still verifies whole', async () => {
    const path = trail();
    await append(path, numbered(30));
    const lines = await append(path, ['more'], endOf(await append(path, []), 3));
    expect(lines).toHaveLength(31);
    expect(await verifyAudit(path)).toEqual({ ok: true, last: { seq: 31, prev: JSON.parse(lines[30]!).hash } });
  });

  it('refuses a record edited within the checked end, naming its seq', async () => {
    const path = trail();
    const lines = await append(path, numbered(10));
    lines[8] = lines[8]!.replace('call 9', 'call 0');
    writeFileSync(path, lines.join('\n') + '\n');
    expect(verifyEnd(path, endOf(lines, 3))).toMatchObject({ ok: false, at: 'seq 9', problem: 'does not match its hash' });
    await expect(AuditLog.open(path, () => NOW, undefined, endOf(lines, 3))).rejects.toThrow(new ConfigError(`the audit trail ${path} does not verify at seq 9: does not match its hash`));
  });

  it('refuses a record removed within the checked end, and a first record checked that is no record', async () => {
    const path = trail();
    const lines = await append(path, numbered(10));
    writeFileSync(path, [...lines.slice(0, 8), lines[9]].join('\n') + '\n');
    // The bytes checked now reach back to record 8: the record after it says it is the 10th.
    expect(verifyEnd(path, endOf(lines, 3))).toMatchObject({ ok: false, at: 'seq 9', problem: 'is out of sequence (expected seq 9)' });
    writeFileSync(path, [...lines.slice(0, 7), '{"seq":"eight"}', ...lines.slice(8)].join('\n') + '\n');
    expect(verifyEnd(path, endOf(lines, 3))).toMatchObject({ ok: false, problem: 'has no seq or prev' });
    expect(verifyEnd(path, endOf(lines, 3))).toHaveProperty('at', `the first record of its last ${endOf(lines, 3)} bytes`);
  });

  it('is checked whole from the start of the chain when the trail is no longer than the checked end', async () => {
    const path = trail();
    const lines = await append(path, numbered(5));
    writeFileSync(path, lines.slice(1).join('\n') + '\n');
    expect(verifyEnd(path, CHECKED_END_BYTES)).toMatchObject({ ok: false, at: 'seq 1', problem: 'is out of sequence (expected seq 1)' });
  });

  it('holds at least the last record, however long', async () => {
    const path = trail();
    const long = 'x'.repeat(3 * 1024);
    const lines = await append(path, [...numbered(3), long], 1024);
    expect(lines).toHaveLength(4);
    expect(verifyEnd(path, 1024)).toEqual({ ok: true, last: { seq: 4, prev: JSON.parse(lines[3]!).hash } });
    // And the record before it when the last one alone fills the bytes checked.
    writeFileSync(path, lines.join('\n').replace(long, 'y'.repeat(3 * 1024)) + '\n');
    expect(verifyEnd(path, 1024)).toMatchObject({ ok: false, at: 'seq 4', problem: 'does not match its hash' });
  });

  it('must end with a newline: a record cut short, or whole but unended, is refused', async () => {
    const path = trail();
    const lines = await append(path, numbered(4));
    writeFileSync(path, lines.join('\n'));
    expect(verifyEnd(path, CHECKED_END_BYTES)).toEqual({ ok: false, at: 'its last record', problem: 'is cut short: the trail does not end with a newline' });
    appendFileSync(path, '\n{"seq":5,"at"');
    await expect(AuditLog.open(path, () => NOW, undefined)).rejects.toThrow('does not verify at its last record: is cut short');
  });

  it('of an empty trail is the start of the chain', async () => {
    const path = trail();
    writeFileSync(path, '');
    expect(verifyEnd(path, CHECKED_END_BYTES)).toEqual({ ok: true, last: { seq: 0, prev: '0'.repeat(64) } });
    expect(JSON.parse((await append(path, ['first']))[0]!)).toMatchObject({ seq: 1, prev: '0'.repeat(64) });
  });
});
