import { readLedger, type ConnectionRecord, type LaunchRecord, type LedgerRecord, type RecvRecord, type SentRecord } from '../../servers/kit/ledger.js';

/**
 * The hostile servers' ledger (docs/hostile-servers.md), as evidence. The kit writes it and the
 * broker never sees it, so it is the harness's account of what crossed to the server side.
 */
export class Ledger {
  constructor(readonly path: string) {}

  /** Every record so far. Read afresh each time: the servers append while the scenario runs. */
  read(): LedgerRecord[] {
    return readLedger(this.path);
  }

  /** A position in the ledger, to count what happened after it. */
  mark(): number {
    return this.read().length;
  }
}

export const launches = (records: readonly LedgerRecord[]) => records.filter((r): r is LaunchRecord => r.ev === 'launch');

/** Every request of `method` the server received. */
export const requestsOf = (records: readonly LedgerRecord[], method: string) => records.filter((r): r is RecvRecord => r.ev === 'recv' && r.method === method);
export const listRequests = (records: readonly LedgerRecord[]) => records.filter((r): r is RecvRecord => r.ev === 'recv' && r.method === 'tools/list');

/**
 * The calls of `tool` the servers received, each once: a 2026-07-28 multi round-trip call reaches
 * its server twice, first asking and then retried with the answers and the `requestState` the
 * server issued, and the retry is the same call's second half (the server records its
 * `request_state` intact straight after reading it). A retry whose state the server did not issue
 * is a request of its own, and counts.
 */
export const callsTo = (records: readonly LedgerRecord[], tool: string) =>
  records.filter((r, at): r is RecvRecord => r.ev === 'recv' && r.method === 'tools/call' && r.tool === tool && !continuesCall(records, at));

/** Whether the recv at `at` is a retry its server found carrying its own intact `requestState`. */
function continuesCall(records: readonly LedgerRecord[], at: number): boolean {
  const { pid } = records[at]!;
  for (let next = at + 1; next < records.length; next++) {
    const record = records[next]!;
    if (record.pid !== pid) continue;
    if (record.ev === 'request_state') return record.intact;
    // The server records the state while it handles the line, before it reads another.
    if (record.ev === 'recv') return false;
  }
  return false;
}

/** The notifications of `method` the servers sent of their own accord. */
export const noticesOf = (records: readonly LedgerRecord[], method: string) =>
  records.filter((r): r is SentRecord => r.ev === 'sent' && r.method === method);

/** Every process the servers reported: themselves and the descendants they spawned. */
export function serverPids(records: readonly LedgerRecord[]): number[] {
  const pids = new Set<number>();
  for (const record of records) {
    if (record.ev === 'launch') pids.add(record.pid);
    if (record.ev === 'spawn') pids.add(record.child);
  }
  return [...pids];
}

/** The largest number of `tools/list` requests any one server process received. */
export function maxListRequestsPerLaunch(records: readonly LedgerRecord[]): number {
  const perPid = new Map<number, number>();
  for (const record of listRequests(records)) perPid.set(record.pid, (perPid.get(record.pid) ?? 0) + 1);
  return Math.max(0, ...perPid.values());
}

/** Every TCP connection an HTTP server accepted, whatever was sent over it. */
export const connections = (records: readonly LedgerRecord[]) => records.filter((r): r is ConnectionRecord => r.ev === 'connection');

/** The reply the request's own server process sent to it, matched by the id's raw text. */
const replyOf = (records: readonly LedgerRecord[], request: RecvRecord): SentRecord | undefined =>
  records.find((r): r is SentRecord => r.ev === 'sent' && r.pid === request.pid && r.seq > request.seq && r.in_reply_to === request.id);

/** Each `tools/list` request with an id, paired with the answer its server sent to it, if any. */
export function listingReplies(records: readonly LedgerRecord[]): Array<{ request: RecvRecord; reply: SentRecord }> {
  return listRequests(records).flatMap((request) => {
    if (request.id === null) return [];
    const reply = replyOf(records, request);
    return reply === undefined ? [] : [{ request, reply }];
  });
}

/**
 * The first request of `method` (to `tool`, for a call) among `records` that its server answered,
 * with that reply: evidence that an answer existed for the broker to pass on.
 */
export function answered(records: readonly LedgerRecord[], method: string, tool?: string): { request: RecvRecord; reply: SentRecord } | undefined {
  for (const request of requestsOf(records, method)) {
    if (request.id === null || (tool !== undefined && request.tool !== tool)) continue;
    const reply = replyOf(records, request);
    if (reply !== undefined) return { request, reply };
  }
  return undefined;
}

/** The processes of the server the scenario names `name` among several: their launch records carry that name (`--as`). */
export const pidsOf = (records: readonly LedgerRecord[], name: string): ReadonlySet<number> =>
  new Set(launches(records).filter((launch) => launch.as === name).map((launch) => launch.pid));

/** That server's own ledger, within the scenario's one file: the records its processes wrote, in order. */
export function recordsOf(records: readonly LedgerRecord[], name: string): LedgerRecord[] {
  const pids = pidsOf(records, name);
  return records.filter((record) => pids.has(record.pid));
}
