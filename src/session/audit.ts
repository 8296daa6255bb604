// The audit trail: one JSON line per decision the broker takes (a tool registered or refused, a
// call allowed or refused, an approval requested, granted or rejected, a dispatched call's answer
// passed on or rejected), appended and never rewritten. A call's records say what was asked, how
// its input was judged, which grant it relied on, whether the server was sent it and the receipt
// or refusal, so a rejection after dispatch never reads like a refusal before it; records about a
// tool name the contract the operator reviewed (pinned hashes, source version). Each record carries the hash of the one before it, so an edited, inserted or removed
// record breaks the chain at that point; `gauntlet-broker audit-verify` finds where. Text a
// server or an agent chose is escaped, so it can neither forge a record nor hide in one.
//
// Records are handed to the OS in batches, never later than the effect of their decision: the
// session calls `flush` before it writes anything to the agent or dispatches a call to the server,
// and whatever no write followed is written at the end of the run of the broker's code that made
// it (a microtask, not another turn of the event loop). So a
// crash of the broker loses no record of anything that left it; a crash of the machine can lose
// what the OS had not yet put on disk, except once the trail is closed (it is fsynced then).

import { closeSync, createReadStream, existsSync, fstatSync, fsyncSync, openSync, readSync, writeSync } from 'node:fs';
import { ConfigError } from '../errors.js';
import { descriptionHash, sha256Hex } from '../load/fingerprint.js';
import { canonicalJson } from '../json/canonical.js';
import { readJson } from '../json/reader.js';
import { member, object } from '../json/tree.js';
import { quoteString } from '../json/escape.js';
import { writePlain } from '../json/writer.js';
import { receiptJson } from './receipt.js';
import { escapeServerText as esc } from '../inspect/sanitize.js';
import type { Clock } from '../operator/time.js';
import type { JsonObject, JsonValue, PinnedTool, AuditDecision, CallFacts } from '../types.js';

/** What a pin records for a tool the server gave no description. */
const NO_DESCRIPTION_HASH = descriptionHash(undefined);

/** The pinned hashes of a tool, as records give them; null for a tool nothing pinned. */
export function reviewedContract(pin: PinnedTool | undefined): ReviewedContract | null {
  if (pin === undefined) return null;
  const described = pin.descriptionHash !== NO_DESCRIPTION_HASH;
  return { descriptionSha256: described ? pin.descriptionHash : null, inputSchemaSha256: pin.schemaHash };
}

/** The reviewed contract a decision about a pinned tool relied on. */
export interface ReviewedContract {
  /** SHA-256 of the pinned description's UTF-8 bytes; null when the server gave none. */
  readonly descriptionSha256: string | null;
  /** SHA-256 of the canonical JSON of the pinned input schema. */
  readonly inputSchemaSha256: string;
}

export interface AuditEntry {
  readonly decision: AuditDecision;
  /** The server's name for the tool, or the name the agent asked for when it sees no such tool. */
  readonly tool: string;
  /** The name the agent sees (load records) or asked for (call records). */
  readonly name: string | null;
  readonly agent: string | null;
  /** The refusal code of a refused call, or null. */
  readonly code: string | null;
  /** On call_refused: whether any registered tool has the name asked for, whatever the agent. */
  readonly toolExists: boolean | null;
  /** Null on records that are not about a call. */
  readonly call: CallFacts | null;
  /** Null when the tool is not pinned, or the record is about no registered tool. */
  readonly contract: ReviewedContract | null;
  readonly detail: string | null;
}

/** Where the session sends its decisions. */
export interface AuditSink {
  record(entry: AuditEntry): void;
  /** Hands every record made so far to the OS; throws when the trail cannot be written. */
  flush(): void;
}

const GENESIS = '0'.repeat(64);
/** The fields of a record, in the order they are written; `hash` comes last. */
const FIELDS = [
  'seq',
  'at',
  'decision',
  'tool',
  'name',
  'agent',
  'code',
  'tool_exists',
  'operation',
  'validation',
  'grant',
  'dispatched',
  'receipt',
  'contract',
  'source_version',
  'detail',
  'prev',
];

/** Each field's name as a JSON key, `"name":`, and the index of each in the order canonical JSON sorts the names. */
const KEYS = FIELDS.map((key) => `${quoteString(key)}:`);
const SORTED_AT = FIELDS.map((_, at) => at).sort((a, b) => (FIELDS[a]! < FIELDS[b]! ? -1 : 1));

/** sha256(prev + canonical JSON of the record without its hash), as hex. */
export function recordHash(prev: string, withoutHash: JsonObject): string {
  return chainHash(prev, canonicalJson(withoutHash));
}

/** The chain's one formula, over the canonical text however it was written. */
function chainHash(prev: string, canonical: string): string {
  return sha256Hex(prev + canonical);
}

export class AuditLog implements AuditSink {
  /** The lines of records made and not yet given to the OS. */
  private unwritten: string[] = [];
  /**
   * The bytes a failed write left, written first at the next flush. Kept as bytes: a write can
   * stop inside a character, and decoding what is left would turn its last bytes into U+FFFD.
   */
  private leftover: Buffer | undefined;
  private flushScheduled = false;

  private constructor(
    private readonly fd: number,
    private readonly clock: Clock,
    private readonly sourceVersion: string | null,
    private seq: number,
    private prev: string,
  ) {}

  /**
   * Opens the trail for appending; the end of an existing trail must verify (`verifyEnd`), and
   * the chain goes on from its last record. `sourceVersion` is the reviewed source version the
   * operator configured, recorded every time.
   */
  static async open(path: string, clock: Clock, sourceVersion: string | undefined, endBytes = CHECKED_END_BYTES): Promise<AuditLog> {
    let seq = 0;
    let prev = GENESIS;
    if (existsSync(path)) {
      const verdict = verifyEnd(path, endBytes);
      if (!verdict.ok) throw new ConfigError(`the audit trail ${path} does not verify at ${verdict.at}: ${verdict.problem}`);
      ({ seq, prev } = verdict.last);
    }
    let fd: number;
    try {
      fd = openSync(path, 'a', 0o600);
    } catch (err) {
      throw new ConfigError(`cannot open the audit trail ${path}: ${(err as Error).message}`);
    }
    return new AuditLog(fd, clock, sourceVersion === undefined ? null : esc(sourceVersion), seq, prev);
  }

  record(entry: AuditEntry): void {
    this.seq += 1;
    // Each value's JSON text is written once, straight from the entry (nested keys sorted), in
    // FIELDS order; the line is those texts under their keys in that order, and the canonical text
    // the hash is over (what recordHash gives the record read back, and audit-verify checks) the
    // same texts with the keys sorted.
    const values = fieldTexts(entry, this.seq, new Date(this.clock()).toISOString(), this.sourceVersion, this.prev);
    let canonical = '{';
    for (let i = 0; i < SORTED_AT.length; i++) canonical += (i === 0 ? '' : ',') + KEYS[SORTED_AT[i]!]! + values[SORTED_AT[i]!]!;
    const hash = chainHash(this.prev, `${canonical}}`);
    let line = '{';
    for (let at = 0; at < KEYS.length; at++) line += KEYS[at]! + values[at]! + ',';
    this.unwritten.push(`${line}"hash":"${hash}"}\n`);
    this.prev = hash;
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    queueMicrotask(this.flushLater);
  }

  /** What no flush of the session's took by the end of the run that made it. */
  private readonly flushLater = (): void => {
    if (!this.flushScheduled) return;
    try {
      this.flush();
    } catch {
      // Still held: the session's flush before its next write fails, and nothing goes out.
    }
  };

  flush(): void {
    this.flushScheduled = false;
    if (this.unwritten.length === 0 && this.leftover === undefined) return;
    const lines = Buffer.from(this.unwritten.join(''));
    const text = this.leftover === undefined ? lines : Buffer.concat([this.leftover, lines]);
    this.unwritten = [];
    this.leftover = undefined;
    let at = 0;
    try {
      while (at < text.length) at += writeSync(this.fd, text, at);
    } finally {
      // What a failed write left is held, to be written first, so no byte goes twice.
      if (at < text.length) this.leftover = text.subarray(at);
    }
  }

  close(): void {
    this.flush();
    fsyncSync(this.fd);
    closeSync(this.fd);
  }
}

/** A text an agent or a server chose, escaped, as a JSON value; null stays null. */
const escapedText = (text: string | null): string => (text === null ? 'null' : quoteString(esc(text)));

/**
 * The JSON text of each field of a record, in FIELDS order, escaped where an agent, a server or
 * the operator chose the text. `sourceVersion` is already escaped; `at` and `prev` need no
 * escaping (an ISO instant, a hex digest).
 */
function fieldTexts(entry: AuditEntry, seq: number, at: string, sourceVersion: string | null, prev: string): string[] {
  const { call, contract } = entry;
  return [
    String(seq),
    `"${at}"`,
    quoteString(entry.decision),
    quoteString(esc(entry.tool)),
    escapedText(entry.name),
    escapedText(entry.agent),
    entry.code === null ? 'null' : quoteString(entry.code),
    entry.toolExists === null ? 'null' : String(entry.toolExists),
    // operation: its members in sorted order, as canonical JSON has them.
    call === null ? 'null' : `{"arguments_sha256":"${call.operation.argumentsSha256}","name":${quoteString(esc(call.operation.name))}}`,
    call === null ? 'null' : quoteString(call.validation),
    call?.grant == null ? 'null' : writePlain({ id: esc(call.grant.id), permission: esc(call.grant.permission), expires_at: new Date(call.grant.expiresAt).toISOString() }, true),
    call === null ? 'null' : String(call.dispatched),
    call?.receipt == null ? 'null' : writePlain(receiptJson({ ...call.receipt, tool: esc(call.receipt.tool) }), true),
    contract === null ? 'null' : writePlain({ description_sha256: contract.descriptionSha256, input_schema_sha256: contract.inputSchemaSha256 }, true),
    sourceVersion === null ? 'null' : quoteString(sourceVersion),
    escapedText(entry.detail),
    `"${prev}"`,
  ];
}

export type AuditVerdict =
  | { readonly ok: true; readonly last: { readonly seq: number; readonly prev: string } }
  | { readonly ok: false; readonly seq: number; readonly problem: string };

/** Checks every record's shape, sequence number, link to the one before, and hash: `audit-verify`. */
export async function verifyAudit(path: string): Promise<AuditVerdict> {
  let seq = 0;
  let prev = GENESIS;
  // Loaded here, not with the module: the broker itself never reads a whole trail, and loading
  // readline is about a millisecond of every start.
  const lines = process.getBuiltinModule('node:readline').createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  try {
    for await (const line of lines) {
      seq += 1;
      const problem = recordProblem(line, seq, prev);
      if (typeof problem === 'string') return { ok: false, seq, problem };
      prev = problem.hash;
    }
  } catch (err) {
    throw new ConfigError(`cannot read the audit trail ${path}: ${(err as Error).message}`);
  }
  return { ok: true, last: { seq, prev } };
}

/**
 * How much of an existing trail's end the broker verifies before it appends: the start of a
 * broker must not grow with its trail. Every record that begins in these last bytes is checked,
 * and at least the last record, however long; `audit-verify` checks the whole chain.
 */
export const CHECKED_END_BYTES = 64 * 1024;

/** What `verifyEnd` found: where the first bad record is, as a seq or as the place it begins. */
export type EndVerdict = { readonly ok: true; readonly last: { readonly seq: number; readonly prev: string } } | { readonly ok: false; readonly at: string; readonly problem: string };

/**
 * Checks the records of the trail's end as `verifyAudit` checks them all (each record's shape and
 * hash, each linked to the one before it and numbered after it), and that the trail ends with a
 * newline: else its last record was cut short, and the next would be joined to it. The first
 * record checked is taken at its word for its number and link, since what came before it is not
 * read, unless it is the trail's first: that must be seq 1 and link to the start of the chain.
 */
export function verifyEnd(path: string, endBytes: number): EndVerdict {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    throw new ConfigError(`cannot read the audit trail ${path}: ${(err as Error).message}`);
  }
  try {
    const size = fstatSync(fd).size;
    if (size > 0 && readFrom(fd, size - 1, 1)[0] !== 0x0a) return { ok: false, at: 'its last record', problem: 'is cut short: the trail does not end with a newline' };
    // Widened until a record begins in it: a last record longer than `endBytes` is read whole.
    for (let span = Math.min(endBytes, size); ; span = Math.min(span * 2, size)) {
      const from = size - span;
      const end = readFrom(fd, from, span);
      // A record begins after a newline (the trail ends with one): the text before the first
      // belongs to a record that began earlier.
      const begins = from === 0 ? 0 : end.indexOf(0x0a) + 1;
      if (from !== 0 && begins === span) continue;
      const lines = size === 0 ? [] : end.toString('utf8', begins, span - 1).split('\n');
      if (from === 0) return checkRecords(lines, 1, GENESIS);
      const first = ownPlace(lines[0]!);
      return typeof first === 'string' ? { ok: false, at: `the first record of its last ${span} bytes`, problem: first } : checkRecords(lines, first.seq, first.prev);
    }
  } catch (err) {
    throw new ConfigError(`cannot read the audit trail ${path}: ${(err as Error).message}`);
  } finally {
    closeSync(fd);
  }
}

/** `length` bytes of the file from `position`, however many reads that takes; a file that ends first has shrunk since its size was read. */
function readFrom(fd: number, position: number, length: number): Buffer {
  const bytes = Buffer.alloc(length);
  for (let read = 0; read < length; ) {
    const got = readSync(fd, bytes, read, length - read, position + read);
    if (got === 0) throw new Error('it ended while it was read');
    read += got;
  }
  return bytes;
}

/** The number and link a record gives itself, or what keeps it from giving them. */
function ownPlace(line: string): { seq: number; prev: string } | string {
  let value: JsonValue;
  try {
    value = readJson(line);
  } catch (err) {
    return `is not valid JSON (${(err as Error).message})`;
  }
  const seq = value.kind === 'object' ? member(value, 'seq') : undefined;
  const prev = value.kind === 'object' ? member(value, 'prev') : undefined;
  if (seq?.kind !== 'number' || !/^[1-9]\d{0,14}$/.test(seq.text) || prev?.kind !== 'string') return 'has no seq or prev';
  return { seq: Number(seq.text), prev: prev.value };
}

function checkRecords(lines: readonly string[], firstSeq: number, firstPrev: string): EndVerdict {
  let prev = firstPrev;
  for (const [i, line] of lines.entries()) {
    const seq = firstSeq + i;
    const problem = recordProblem(line, seq, prev);
    if (typeof problem === 'string') return { ok: false, at: `seq ${seq}`, problem };
    prev = problem.hash;
  }
  return { ok: true, last: { seq: firstSeq + lines.length - 1, prev } };
}

/** What is wrong with one line, or its hash when nothing is. */
function recordProblem(line: string, seq: number, prev: string): string | { hash: string } {
  let value: JsonValue;
  try {
    value = readJson(line);
  } catch (err) {
    return `is not valid JSON (${(err as Error).message})`;
  }
  if (value.kind !== 'object') return 'is not a JSON object';
  const keys = value.entries.map(([key]) => key);
  if (keys.join(',') !== [...FIELDS, 'hash'].join(',')) return `has the fields ${keys.join(', ')}`;
  const withoutHash = object(value.entries.slice(0, -1));
  const field = (key: string) => value.entries.find(([k]) => k === key)?.[1];
  const seqField = field('seq');
  if (seqField?.kind !== 'number' || seqField.text !== String(seq)) return `is out of sequence (expected seq ${seq})`;
  const prevField = field('prev');
  if (prevField?.kind !== 'string' || prevField.value !== prev) return 'does not link to the record before it';
  const hashField = field('hash');
  const hash = recordHash(prev, withoutHash);
  if (hashField?.kind !== 'string' || hashField.value !== hash) return 'does not match its hash';
  return { hash };
}
