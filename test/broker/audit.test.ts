// The audit trail: one hash-chained line per decision, escaped, append-only; an edit anywhere is
// found by the verifier, and one at the trail's end by the broker before it appends to the trail
// (audit-end.test.ts).

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditLog, recordHash, reviewedContract, verifyAudit, type AuditEntry } from '../../src/session/audit.js';
import { descriptionHash, sha256Hex } from '../../src/load/fingerprint.js';
import { object } from '../../src/json/tree.js';
import { ConfigError } from '../../src/errors.js';
import { readJson } from '../../src/json/reader.js';
import { NOW, auditEntry, json } from './builders.js';
import { Workdir } from './e2e-helpers.js';

let dir = '';
let path = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'broker-audit-'));
  path = join(dir, 'audit.jsonl');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const entry = auditEntry;

async function writeTrail(entries: AuditEntry[], sourceVersion?: string): Promise<string[]> {
  const log = await AuditLog.open(path, () => NOW, sourceVersion);
  for (const e of entries) log.record(e);
  log.close();
  return readFileSync(path, 'utf8').trimEnd().split('\n');
}

describe('AuditLog', () => {
  it('writes one chained record per decision, with every field', async () => {
    const lines = await writeTrail([entry({ decision: 'registered', code: null, toolExists: null, detail: 'effect local_change' }), entry()]);
    const [first, second] = lines.map((line) => JSON.parse(line));
    expect(first).toEqual({
      seq: 1,
      at: '2030-01-01T00:00:00.000Z',
      decision: 'registered',
      tool: 'write_note',
      name: 'save_note',
      agent: 'writer',
      code: null,
      tool_exists: null,
      operation: null,
      validation: null,
      grant: null,
      dispatched: null,
      receipt: null,
      contract: null,
      source_version: null,
      detail: 'effect local_change',
      prev: '0'.repeat(64),
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(second).toMatchObject({ seq: 2, decision: 'call_refused', code: 'policy_denied', tool_exists: true, prev: first.hash });
    // hash = sha256(prev + canonical JSON of the record without its hash)
    const { hash, ...rest } = second;
    expect(recordHash(first.hash, json(JSON.stringify(rest)))).toBe(hash);
    expect(await verifyAudit(path)).toEqual({ ok: true, last: { seq: 2, prev: second.hash } });
  });

  it('escapes text a server or an agent chose, so it cannot forge or hide in a record', async () => {
    const [line] = await writeTrail([entry({ tool: 'evil\u202e\n{"seq":99}', name: 'x\u200by', agent: 'a\\b', detail: 'line\u2028two' })]);
    expect(line?.split('\n')).toHaveLength(1);
    expect(JSON.parse(line ?? '')).toMatchObject({
      tool: 'evil\\u{202e}\\u{a}{"seq":99}',
      name: 'x\\u{200b}y',
      agent: 'a\\\\b',
      detail: 'line\\u{2028}two',
    });
  });

  it('records what a call asked, how far it got, and the reviewed contract and source version', async () => {
    const call = {
      operation: { name: 'save\u202enote', argumentsSha256: 'a'.repeat(64) },
      validation: 'passed' as const,
      grant: { id: 'g-write', permission: 'notes.write', expiresAt: NOW + 1 },
      dispatched: true,
      receipt: { tool: 'save_note', permission: 'notes.write', dataClassification: 'secret' },
    };
    const contract = { descriptionSha256: null, inputSchemaSha256: 'b'.repeat(64) };
    const [line] = await writeTrail([entry({ decision: 'call_answered', code: null, call, contract })], '1.4.2');
    expect(JSON.parse(line ?? '')).toMatchObject({
      operation: { name: 'save\\u{202e}note', arguments_sha256: 'a'.repeat(64) },
      validation: 'passed',
      grant: { id: 'g-write', permission: 'notes.write', expires_at: '2030-01-01T00:00:00.001Z' },
      dispatched: true,
      receipt: { tool: 'save_note', permission: 'notes.write', trust: 'untrusted', data_classification: 'secret' },
      contract: { description_sha256: null, input_schema_sha256: 'b'.repeat(64) },
      source_version: '1.4.2',
    });
    expect((await verifyAudit(path)).ok).toBe(true);
  });

  it('gives a pinned tool without a description a null description hash', () => {
    const pin = (description: string | undefined) => ({
      descriptionHash: descriptionHash(description),
      schemaHash: 'c'.repeat(64),
      inputSchema: object([]),
      annotations: undefined,
      outputSchema: undefined,
    });
    expect(reviewedContract(pin(undefined))).toEqual({ descriptionSha256: null, inputSchemaSha256: 'c'.repeat(64) });
    expect(reviewedContract(pin(''))).toEqual({ descriptionSha256: sha256Hex(''), inputSchemaSha256: 'c'.repeat(64) });
    expect(reviewedContract(undefined)).toBeNull();
  });

  it('goes on from an existing trail, and refuses to append to one that does not verify', async () => {
    await writeTrail([entry(), entry()]);
    const lines = await writeTrail([entry({ decision: 'allowed', code: null, toolExists: null })]);
    expect(lines.map((line) => JSON.parse(line).seq)).toEqual([1, 2, 3]);
    expect((await verifyAudit(path)).ok).toBe(true);
    writeFileSync(path, lines.slice(1).join('\n') + '\n');
    await expect(AuditLog.open(path, () => NOW, undefined)).rejects.toThrow(ConfigError);
    await expect(AuditLog.open(path, () => NOW, undefined)).rejects.toThrow('does not verify at seq 1');
  });
});

describe('when records are written', () => {
  it('writes the records of one turn together at its end, and each later turn on its own', async () => {
    const log = await AuditLog.open(path, () => NOW, undefined);
    log.record(entry());
    log.record(entry());
    expect(readFileSync(path, 'utf8')).toBe('');
    await new Promise((done) => setImmediate(done));
    expect(readFileSync(path, 'utf8').trimEnd().split('\n')).toHaveLength(2);
    log.record(entry());
    await new Promise((done) => setImmediate(done));
    expect(readFileSync(path, 'utf8').trimEnd().split('\n')).toHaveLength(3);
    // flush() writes at once; closing writes what is left.
    log.record(entry());
    log.flush();
    expect(readFileSync(path, 'utf8').trimEnd().split('\n')).toHaveLength(4);
    log.flush();
    log.record(entry());
    log.close();
    expect(readFileSync(path, 'utf8').trimEnd().split('\n')).toHaveLength(5);
    expect(await verifyAudit(path)).toMatchObject({ ok: true, last: { seq: 5 } });
  });

  it('refuses a trail it cannot open, naming it', async () => {
    const inFile = join(path, 'audit.jsonl');
    writeFileSync(path, '');
    await expect(AuditLog.open(inFile, () => NOW, undefined)).rejects.toThrow(new ConfigError(`cannot open the audit trail ${inFile}: ENOTDIR: not a directory, open '${inFile}'`));
  });
});

describe('verifyAudit finds the first bad record', () => {
  const tampered = async (edit: (lines: string[]) => string[]) => {
    rmSync(path, { force: true });
    const lines = await writeTrail([entry(), entry({ decision: 'allowed', code: null }), entry({ decision: 'approval_requested' }), entry()]);
    writeFileSync(path, edit(lines).join('\n') + '\n');
    return verifyAudit(path);
  };

  it('an edited field', async () => {
    expect(await tampered((l) => l.map((line, i) => (i === 1 ? line.replace('"allowed"', '"call_refused"') : line)))).toEqual({
      ok: false,
      seq: 2,
      problem: 'does not match its hash',
    });
  });

  it('an edited record with its hash recomputed breaks the link of the next', async () => {
    const verdict = await tampered((lines) =>
      lines.map((line, i) => {
        if (i !== 1) return line;
        const value = JSON.parse(line);
        const { hash: _old, ...rest } = { ...value, agent: 'someone-else' };
        return JSON.stringify({ ...rest, hash: recordHash(rest.prev, json(JSON.stringify(rest))) });
      }),
    );
    expect(verdict).toEqual({ ok: false, seq: 3, problem: 'does not link to the record before it' });
  });

  it('names each problem exactly', async () => {
    const at = async (index: number, edit: (line: string) => string) => tampered((l) => l.map((line, i) => (i === index ? edit(line) : line)));
    expect(await at(2, () => '{"seq":3')).toEqual({ ok: false, seq: 3, problem: 'is not valid JSON (expected "," or "}" at offset 8)' });
    expect(await at(2, () => '[1]')).toEqual({ ok: false, seq: 3, problem: 'is not a JSON object' });
    expect(await at(0, (line) => line.replace('"hash"', '"extra":1,"hash"'))).toMatchObject({ ok: false, seq: 1, problem: expect.stringMatching(/^has the fields seq, at, .*, prev, extra, hash$/) });
    expect(await at(1, (line) => line.replace('"seq":2', '"seq":"2"'))).toEqual({ ok: false, seq: 2, problem: 'is out of sequence (expected seq 2)' });
    expect(await at(1, (line) => line.replace('"seq":2', '"seq":2.0'))).toEqual({ ok: false, seq: 2, problem: 'is out of sequence (expected seq 2)' });
    expect(await at(1, (line) => line.replace(/"prev":"[0-9a-f]+"/, '"prev":null'))).toEqual({ ok: false, seq: 2, problem: 'does not link to the record before it' });
    expect(await at(1, (line) => line.replace(/"hash":"[0-9a-f]+"/, '"hash":null'))).toEqual({ ok: false, seq: 2, problem: 'does not match its hash' });
  });

  it('a removed, reordered or broken record', async () => {
    expect(await tampered((l) => [l[0] ?? '', ...l.slice(2)])).toMatchObject({ ok: false, seq: 2, problem: 'is out of sequence (expected seq 2)' });
    expect(await tampered((l) => [l[1] ?? '', l[0] ?? '', ...l.slice(2)])).toMatchObject({ ok: false, seq: 1 });
    expect(await tampered((l) => [...l.slice(0, 2), '{"seq":3', ...l.slice(3)])).toMatchObject({ ok: false, seq: 3 });
    expect(await tampered((l) => l.map((line, i) => (i === 3 ? line.replace('"hash"', '"extra":1,"hash"') : line)))).toMatchObject({ ok: false, seq: 4 });
  });
});

describe('gauntlet-broker audit-verify', () => {
  let work: Workdir;
  afterEach(async () => {
    await work.cleanup();
  });

  it('exits 0 on an intact trail and 1 on an edited one, naming the first bad seq', async () => {
    work = new Workdir();
    const lines = await writeTrail([entry(), entry(), entry()]);
    const ok = await work.run(['audit-verify', path]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('verifies: 3 record(s)');
    writeFileSync(path, lines.map((line, i) => (i === 1 ? line.replace('"writer"', '"planner"') : line)).join('\n') + '\n');
    const bad = await work.run(['audit-verify', path]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('is tampered at seq 2: does not match its hash');
    expect((await work.run(['audit-verify'])).code).toBe(2);
    expect((await work.run(['audit-verify', join(dir, 'missing.jsonl')])).code).toBe(2);
    expect(readJson(lines[0] ?? '').kind).toBe('object');
  });
});
