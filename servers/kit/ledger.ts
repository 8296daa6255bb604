/**
 * The ledger: what the server actually received, sent and did, appended as JSON lines to a file
 * the broker never sees. Verdicts are taken from it rather than from anything the broker claims.
 * The harness imports the record types from here.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import type { Phase } from './phase.js';

/** `raw` in a recv or sent record holds at most this many characters (UTF-16 units) of the line. */
export const RAW_LIMIT = 65_536;

interface RecordBase {
  pid: number;
  /** Per process, from 0. */
  seq: number;
}

export interface LaunchRecord extends RecordBase {
  ev: 'launch';
  server: string;
  /** The whole process.argv. */
  argv: string[];
  /** The whole environment the server received. */
  env: Record<string, string>;
  ppid: number;
  /** The process group the server runs in (/proc/self/stat), or null where that cannot be read. */
  pgid: number | null;
  /** The session the server runs in, or null where that cannot be read. */
  sid: number | null;
  /** The effective knobs: the preset's, overridden by the command line's. */
  knobs: Record<string, string>;
  /** The scenario's name for this server when it runs several (`--as`); absent for a single one. */
  as?: string;
}

export interface RecvRecord extends RecordBase {
  ev: 'recv';
  /** Length and SHA-256 of the whole line, without its line ending. */
  bytes: number;
  sha256: string;
  raw: string;
  raw_truncated: boolean;
  method: string | null;
  /** Raw JSON text of the id, or null when the message has none. */
  id: string | null;
  /** The tool named by a tools/call, else null. */
  tool: string | null;
  phase: Phase;
}

export interface SentRecord extends RecordBase {
  ev: 'sent';
  bytes: number;
  sha256: string;
  /** The line, cut at RAW_LIMIT characters, as for recv. */
  raw: string;
  raw_truncated: boolean;
  in_reply_to: string | null;
  /** The method of a notification or request the server sent of its own accord; null for a reply. */
  method: string | null;
  /** For a request of the server's own (`ask.<tool>`): its id's raw text; absent otherwise. */
  request_id?: string;
}

/**
 * `ask.<tool>`: the client's reply to a request the server started, as decoded: what reached the
 * server (the roots it was given, the message a sampling request produced, the elicitation's answer).
 */
export interface ReplyRecord extends RecordBase {
  ev: 'reply';
  /** The method of the server's request it answers. */
  method: string;
  /** The id's raw text; in 2026-07-28, the input request's key (`input-1`, ...: servers/kit/mrtr.ts). */
  request_id: string;
  /** The reply's result, or null for an error reply. */
  result: unknown;
  /** The reply's error, or null for a result. */
  error: unknown;
}

/**
 * `ask.<tool>` in 2026-07-28: a retry of a call (one carrying `inputResponses` or `requestState`)
 * arrived; `intact` says whether its `requestState` is one the server issued for that tool,
 * unaltered (servers/kit/mrtr.ts). The replies it brought follow as `reply` records, keyed by
 * the input requests' keys, when the state is intact and the retry carries `inputResponses`.
 */
export interface RequestStateRecord extends RecordBase {
  ev: 'request_state';
  /** The tool of the set the call is for. */
  tool: string;
  /** The `requestState` the retry carried; null when it carried none, or not a string. */
  request_state: string | null;
  intact: boolean;
}

/**
 * The tasks extension (2026-07-28, servers/kit/tasks.ts): a task the server made of a call
 * (`tools/call`), or a `tasks/get`, `tasks/update` or `tasks/cancel` that reached it, with the task
 * id it named: what shows a task id reaching the server that it never issued to this client.
 */
export interface TaskRecord extends RecordBase {
  ev: 'task';
  method: string;
  /** The task id as the request named it; null when it named none as a string. */
  task_id: string | null;
  /** Whether the id names a task the server holds. */
  known: boolean;
  /** Whether the task was made for another client (the pre-made `task-0` of `task_ids=predictable`). */
  foreign: boolean;
}

export interface SpawnRecord extends RecordBase {
  ev: 'spawn';
  child: number;
}

/** `kill_watchdog`: a process set to watch the server, which the server killed. */
export interface KilledRecord extends RecordBase {
  ev: 'killed';
  target: number;
}

export type ExitReason = 'stdin-closed' | 'bad-control-file' | 'die-on-call' | 'SIGTERM' | 'SIGINT' | 'SIGHUP';

export interface ExitRecord extends RecordBase {
  ev: 'exit';
  reason: ExitReason;
}

/** Over HTTP: the server is accepting connections at `port`, on every address it listens on. */
export interface ListeningRecord extends RecordBase {
  ev: 'listening';
  port: number;
}

/** Over HTTP: a client opened a TCP connection, whatever it went on to send. */
export interface ConnectionRecord extends RecordBase {
  ev: 'connection';
  remote: string | null;
  /** The address the client dialled, among those the server listens on. */
  local: string | null;
}

/**
 * Over HTTP: one request as it arrived, before its body is read, with every header the client
 * sent (names in lower case, repeated ones joined by ", "). Nothing is redacted: the ledger is the
 * harness's evidence of what reached the server, an Authorization header included.
 */
export interface RequestRecord extends RecordBase {
  ev: 'request';
  method: string;
  path: string;
  headers: Record<string, string>;
  /**
   * The headers 2026-07-28 mirrors from the body (`mcp-method`, `mcp-name`, every `mcp-param-*`),
   * names in lower case, values as sent (servers/kit/request-headers.ts); absent when it carried none.
   */
  mcp_headers?: Record<string, string>;
}

/**
 * Over HTTP, 2026-07-28: a tools/call of a tool whose input schema annotates arguments with
 * `x-mcp-header`, and how each annotated header (by its `x-mcp-header` name) stood to the body:
 * `match` (the header, decoded, says what the argument says), `mismatch`, or `absent` (the
 * argument is in the body and no header came). Written before the call is served or refused
 * (servers/kit/request-headers.ts, `paramHeaderStates`).
 */
export interface ParamHeadersRecord extends RecordBase {
  ev: 'param_headers';
  tool: string;
  headers: Record<string, 'match' | 'mismatch' | 'absent'>;
}

/**
 * `mark_every`: a line written in pieces has had `bytes` of it taken by the writer, at `mono_ns`
 * on the monotonic clock (process.hrtime.bigint(), as decimal text), which every process on one
 * machine reads alike: how long after a server crossed a bound the broker answered is a difference.
 */
export interface WrittenRecord extends RecordBase {
  ev: 'written';
  bytes: number;
  mono_ns: string;
}

/**
 * Written by the harness's URL-opener recorder (harness/observe/url-openers.ts), not by a server:
 * a program a broker started to show the user a page (`xdg-open`, `$BROWSER`, ...), with its
 * arguments as it received them. Nothing was opened.
 */
export interface OpenedRecord extends RecordBase {
  ev: 'opened';
  /** The name the program was started under: `xdg-open`, `BROWSER`, ... */
  opener: string;
  /** Its arguments after its own name. */
  args: string[];
}

export type LedgerRecord =
  | OpenedRecord
  | LaunchRecord
  | RecvRecord
  | SentRecord
  | ReplyRecord
  | RequestStateRecord
  | TaskRecord
  | SpawnRecord
  | KilledRecord
  | ExitRecord
  | ListeningRecord
  | ConnectionRecord
  | RequestRecord
  | ParamHeadersRecord
  | WrittenRecord;

/** A record as the caller supplies it: the ledger adds pid and seq (distributed over the union). */
type WithoutBase<R> = R extends RecordBase ? Omit<R, keyof RecordBase> : never;
export type LedgerEntry = WithoutBase<LedgerRecord>;

export class Ledger {
  private seq = 0;

  /** With no path the ledger records nothing. */
  constructor(private readonly path: string | null) {}

  append(entry: LedgerEntry): void {
    if (this.path === null) return;
    const { ev, ...fields } = entry;
    const record = { ev, pid: process.pid, seq: this.seq++, ...fields };
    // One small synchronous append per record: each line lands whole, even with several
    // processes writing to the same ledger, and nothing is lost if the process is killed next.
    appendFileSync(this.path, `${JSON.stringify(record)}\n`);
  }
}

/** The `raw` and `raw_truncated` fields for a line's text. */
export function cutRaw(text: string, complete: boolean): { raw: string; raw_truncated: boolean } {
  return { raw: text.slice(0, RAW_LIMIT), raw_truncated: !complete || text.length > RAW_LIMIT };
}

/** Every record in a ledger file, in order; a ledger never written is empty. */
export function readLedger(path: string): LedgerRecord[] {
  let contents: string;
  try {
    contents = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  // A reader can catch a server halfway through appending a large record: only lines that end
  // in a newline are whole, so the unterminated tail is left for the next read.
  const whole = contents.slice(0, contents.lastIndexOf('\n') + 1);
  return whole
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as LedgerRecord);
}
