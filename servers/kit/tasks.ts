/**
 * The tasks extension (`io.modelcontextprotocol/tasks`, MCP 2026-07-28; ext-tasks
 * specification/draft/tasks.md): `task.<tool>=N` makes a call of the tool a task when the request
 * declares the extension in its own `_meta` capabilities ("A server **MUST NOT** return
 * `CreateTaskResult` to a client that did not include the extension capability on its request"),
 * answered at once otherwise. The task completes on the Nth `tasks/get` (polls are counted, never
 * time), carrying what the call would have answered; with `ask.<tool>` it first goes
 * `input_required`, its requests answered by `tasks/update`. Every task method that reaches the
 * server is recorded (`{ev:'task', method, task_id, known, foreign}`), so the harness sees which
 * task ids reached it.
 */
import { createHmac } from 'node:crypto';
import { type AskPreset } from './initiated.js';
import { isRecord } from './jsonrpc.js';
import { type JsonObject, type RawText, writeJson } from './json-text.js';
import type { Ledger } from './ledger.js';
import { inputRequestsObject, inputRequestsOf } from './mrtr.js';
import { CANARY } from './payloads.js';
import { metaOf } from './revision.js';

/** The extension's identifier, under `extensions` in a capabilities object. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** The most polls `task.<tool>` may ask for before a task completes. */
export const MAX_TASK_POLLS = 16;

/**
 * How a server names its tasks (knob `task_ids`): `sealed`, an HMAC of a count keyed by the
 * server's id, which no one else can guess; `predictable`, `task-1`, `task-2`, ... in the order it
 * makes them, the naive server, which also holds `task-0`, made earlier for another user.
 */
export const TASK_ID_MODES = ['sealed', 'predictable'] as const;
export type TaskIdMode = (typeof TASK_ID_MODES)[number];

/** The task `task_ids=predictable` holds for another user: its result is that user's private data. */
export const FOREIGN_TASK_ID = 'task-0';

/** What the foreign task's result says: another user's data, marked with the canary. */
export const FOREIGN_TASK_TEXT = `Quarterly report for another user (private): ${CANARY}`;

/** The time-to-live and polling interval a task is made with: a minute, and poll at once. */
const TTL_MS = 60_000;
const POLL_INTERVAL_MS = 0;

/** What a call made a task of answers when it is done: its result (a CallToolResult's raw text) or its JSON-RPC error's raw text. */
export type TaskOutcome = { result: string } | { error: string };

type Status = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

interface Task {
  id: string;
  createdAt: string;
  status: Status;
  /** `tasks/get` requests still to answer `working` before the task moves on. */
  pollsLeft: number;
  /** The requests for input it makes once its polls are spent (`ask.<tool>`), until `tasks/update` answers them. */
  asking: AskPreset | null;
  outcome: TaskOutcome;
  foreign: boolean;
}

/** Whether a request declares the extension in its own `_meta` capabilities. */
export function declaresTasks(params: unknown): boolean {
  const capabilities = metaOf(params)['io.modelcontextprotocol/clientCapabilities'];
  const extensions = isRecord(capabilities) ? capabilities['extensions'] : undefined;
  return isRecord(extensions) && isRecord(extensions[TASKS_EXTENSION]);
}

/** A whole text of a raw text that may come in pieces: a task's result is held, not streamed. */
export function wholeText(text: RawText): string {
  return typeof text === 'string' ? text : [...text()].join('');
}

/** The answer of a task method: a result's raw text (without `resultType`), or an error's message. */
export type TaskAnswer = { result: string } | { invalid: string };

/** The tasks one server process holds. */
export class Tasks {
  private readonly tasks = new Map<string, Task>();
  private made = 0;

  constructor(
    private readonly mode: TaskIdMode,
    private readonly serverId: string,
    private readonly ledger: Ledger,
  ) {
    if (mode === 'predictable') {
      const done = new Date(0).toISOString();
      const result = writeJson({ content: [{ type: 'text', text: FOREIGN_TASK_TEXT }], isError: false });
      this.tasks.set(FOREIGN_TASK_ID, { id: FOREIGN_TASK_ID, createdAt: done, status: 'completed', pollsLeft: 0, asking: null, outcome: { result }, foreign: true });
    }
  }

  /** Makes a task of a call, done after `polls` polls; the `CreateTaskResult`'s raw text. */
  create(polls: number, asking: AskPreset | null, outcome: TaskOutcome): string {
    const id = this.nextId();
    const task: Task = { id, createdAt: new Date().toISOString(), status: 'working', pollsLeft: polls - 1, asking, outcome, foreign: false };
    this.tasks.set(id, task);
    this.ledger.append({ ev: 'task', method: 'tools/call', task_id: id, known: true, foreign: false });
    return writeJson({ resultType: 'task', ...this.shape(task) });
  }

  /** Answers a task method; every one is recorded with the id it named, known or not. */
  answer(method: string, params: unknown): TaskAnswer {
    const named = isRecord(params) ? params['taskId'] : undefined;
    const id = typeof named === 'string' ? named : null;
    const task = id === null ? undefined : this.tasks.get(id);
    this.ledger.append({ ev: 'task', method, task_id: id, known: task !== undefined, foreign: task?.foreign ?? false });
    // tasks.md: "Servers **SHOULD** return a JSON-RPC error if the `taskId` does not correspond to a known task."
    if (task === undefined) return { invalid: `no task ${JSON.stringify(id)}` };
    switch (method) {
      case 'tasks/get':
        return { result: this.polled(task) };
      case 'tasks/update':
        this.updated(task, isRecord(params) ? params['inputResponses'] : undefined);
        return { result: '{}' };
      default:
        // The naive server honours any cancel of a task it holds, whoever sends it.
        if (task.status === 'working' || task.status === 'input_required') task.status = 'cancelled';
        return { result: '{}' };
    }
  }

  /** A `tasks/get`: a working task moves on once its polls are spent; the task as it now is. */
  private polled(task: Task): string {
    if (task.status === 'working') {
      if (task.pollsLeft > 0) task.pollsLeft -= 1;
      else if (task.asking !== null) task.status = 'input_required';
      else task.status = 'result' in task.outcome ? 'completed' : 'failed';
    }
    const text = writeJson({ ...this.shape(task), ...(task.status === 'input_required' && task.asking !== null ? { inputRequests: inputRequestsObject(task.asking) } : {}) });
    // The outcome is raw text, kept as the call would have sent it, so it is spliced in as it is.
    const payload = task.status === 'completed' && 'result' in task.outcome ? `,"result":${task.outcome.result}` : task.status === 'failed' && 'error' in task.outcome ? `,"error":${task.outcome.error}` : '';
    return payload === '' ? text : `${text.slice(0, -1)}${payload}}`;
  }

  /**
   * A `tasks/update` of a task asking for input: each of its requests gets a `reply` record, as a
   * reply to a request the server sent (a key with no response: `result: null`), and the task goes
   * back to work, done at the next poll. An update of a task asking nothing changes nothing
   * (tasks.md: the server "SHOULD ignore any `inputResponses` ... not currently outstanding").
   */
  private updated(task: Task, responses: unknown): void {
    if (task.status !== 'input_required' || task.asking === null) return;
    const given = isRecord(responses) ? responses : {};
    for (const { key, method } of inputRequestsOf(task.asking)) {
      this.ledger.append({ ev: 'reply', method, request_id: key, result: Object.hasOwn(given, key) ? given[key] : null, error: null });
    }
    task.asking = null;
    task.status = 'working';
  }

  /** The members every form of a task carries (tasks.md, `Task`). */
  private shape(task: Task): JsonObject {
    return { taskId: task.id, status: task.status, createdAt: task.createdAt, lastUpdatedAt: new Date().toISOString(), ttlMs: TTL_MS, pollIntervalMs: POLL_INTERVAL_MS };
  }

  private nextId(): string {
    const n = ++this.made;
    if (this.mode === 'predictable') return `task-${n}`;
    return `tsk_${createHmac('sha256', `mcp-gauntlet kit tasks ${this.serverId}`).update(String(n)).digest('hex').slice(0, 32)}`;
  }
}
