// Approvals bound to the exact call. A call whose effect class needs approval does not run: the
// broker files a request naming the tool, the agent and the canonical text of the arguments, and
// the operator decides out of band by writing a decision file. Only that same call (same tool,
// canonically equal arguments, same agent) can use the decision, and an approval runs it once.
//
// The state directory is the single source of truth, so requests survive a broker restart and
// two brokers sharing it cannot both spend one approval:
//   approvals/<request_id>.json  a request waiting for its outcome (written by the broker)
//   decisions/<request_id>.json  the operator's decision: {"decision":"approve"|"reject","expires_at"?}
//   pending/<binding hash>       the id of the request waiting for that exact call
//   closed/<request_id>.json     a request whose outcome was used; moved there by one rename
// Nothing on the agent connection reaches these files, so nothing an agent sends can approve.

import { randomUUID } from 'node:crypto';
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Fields } from '../operator/fields.js';
import { sha256Hex } from '../load/fingerprint.js';
import { canonicalJson } from '../json/canonical.js';
import { readJson } from '../json/reader.js';
import { plain } from '../json/tree.js';
import { writeJson } from '../json/writer.js';
import { isLive } from '../operator/time.js';
import type { JsonObject, JsonValue } from '../types.js';

export interface ApprovalCall {
  /** The server's name for the tool. */
  readonly tool: string;
  /** The name the agent called it by. */
  readonly name: string;
  /** The agent's arguments, which the approval is bound to. */
  readonly args: JsonObject;
  /** What would reach the server (fixed values included), for the operator to review. */
  readonly forwarded: JsonObject;
  readonly agent: string | undefined;
}

export type ApprovalState =
  | { readonly kind: 'pending'; readonly requestId: string; readonly isNew: boolean }
  | { readonly kind: 'granted' | 'rejected' | 'expired'; readonly requestId: string };

/** A decision file is a few bytes; a larger one is not a decision. */
const MAX_DECISION_BYTES = 4096;
const REQUEST_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

interface Decision {
  readonly approve: boolean;
  readonly expiresAt: number | undefined;
}

export class ApprovalStore {
  constructor(readonly dir: string) {
    for (const sub of ['approvals', 'decisions', 'pending', 'closed']) {
      mkdirSync(join(dir, sub), { recursive: true, mode: 0o700 });
    }
  }

  /** Where this exact call stands, filing a request when none is waiting for it. */
  consult(call: ApprovalCall, now: number): ApprovalState {
    const index = join(this.dir, 'pending', bindingHash(call));
    const requestId = this.waitingRequest(index);
    if (requestId === undefined) return { kind: 'pending', requestId: this.file(call, index), isNew: true };
    const decision = readDecision(join(this.dir, 'decisions', `${requestId}.json`));
    if (decision === undefined) return { kind: 'pending', requestId, isNew: false };
    // The outcome is used once: whoever moves the request to closed/ first has it.
    if (!this.close(requestId, index)) return { kind: 'pending', requestId: this.file(call, index), isNew: true };
    if (!decision.approve) return { kind: 'rejected', requestId };
    return decision.expiresAt === undefined || isLive(decision.expiresAt, now)
      ? { kind: 'granted', requestId }
      : { kind: 'expired', requestId };
  }

  private requestPath(requestId: string): string {
    return join(this.dir, 'approvals', `${requestId}.json`);
  }

  /** The id of the request waiting for the call, if its request file is still there. */
  private waitingRequest(index: string): string | undefined {
    const requestId = readBounded(index, 64);
    if (requestId === undefined || !REQUEST_ID.test(requestId)) return undefined;
    return existsSync(this.requestPath(requestId)) ? requestId : undefined;
  }

  private file(call: ApprovalCall, index: string): string {
    const requestId = randomUUID();
    const request = plain({
      request_id: requestId,
      tool: call.tool,
      name: call.name,
      arguments: canonicalJson(call.args),
      forwarded: writeJson(call.forwarded),
      agent: call.agent ?? null,
    });
    writeAtomically(this.requestPath(requestId), `${writeJson(request)}\n`);
    writeAtomically(index, requestId);
    return requestId;
  }

  private close(requestId: string, index: string): boolean {
    try {
      renameSync(this.requestPath(requestId), join(this.dir, 'closed', `${requestId}.json`));
    } catch {
      return false;
    }
    try {
      unlinkSync(index);
    } catch {
      // Already gone: a later call files a new request either way.
    }
    return true;
  }
}

/** What an approval is bound to: the tool under both its names, the agent and the arguments. */
function bindingHash(call: ApprovalCall): string {
  const binding: JsonValue = { kind: 'array', items: [plain(call.tool), plain(call.name), plain(call.agent ?? null), call.args] };
  return sha256Hex(canonicalJson(binding));
}

/** Readers never see a half-written file: it is written aside and renamed into place. */
function writeAtomically(path: string, text: string): void {
  const aside = `${path}.${process.pid}.tmp`;
  writeFileSync(aside, text, { mode: 0o600 });
  renameSync(aside, path);
}

/** A file's text, or undefined when it is missing, unreadable, larger than `max` or not UTF-8. */
function readBounded(path: string, max: number): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const size = fstatSync(fd).size;
    if (size > max) return undefined;
    const buffer = Buffer.alloc(size);
    return readSync(fd, buffer, 0, size, 0) === size ? STRICT_UTF8.decode(buffer) : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** The operator's decision, or undefined when there is none or it is malformed in any way. */
function readDecision(path: string): Decision | undefined {
  const text = readBounded(path, MAX_DECISION_BYTES);
  if (text === undefined) return undefined;
  try {
    const f = new Fields(readJson(text), 'decision', ['decision', 'expires_at']);
    const decision = f.required('decision', (g, k) => g.string(k));
    if (decision !== 'approve' && decision !== 'reject') return undefined;
    return { approve: decision === 'approve', expiresAt: f.instant('expires_at') };
  } catch {
    return undefined;
  }
}
