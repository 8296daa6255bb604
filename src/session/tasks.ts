// The tasks extension (`io.modelcontextprotocol/tasks`, MCP 2026-07-28; ext-tasks
// specification/draft/tasks.md) at the broker. A server may answer a call with a task
// (`resultType: "task"`, a `taskId`) only when the request declared the extension; the broker
// declares it to a 2026-07-28 server only for a call whose agent declared it itself (the client
// capabilities it otherwise sends are its own, src/upstream/per-request.ts). The agent then polls
// `tasks/get` and may send `tasks/update` and `tasks/cancel`, naming the task by its id. Possession
// of a server's task id is not authentication: a naive server numbers its tasks and answers any of
// them for whoever names it. So the agent is shown a handle of the broker's in place of the
// server's id: random, bound to the session, to the server and to the call it was issued for, at
// most MAX_LIVE_TASKS live and each for TASK_LIFETIME_MS; a task method naming anything else is
// refused before any server sees it. That binding is the guard `task-bound` (src/guards/tasks.ts):
// without it the session relays task ids as they are (RelayedTasks), to the task's server or, for
// an id it never saw, to the first. What the task carries (its result, its error, its requests for
// input) goes through the call path in session.ts either way.

import { randomBytes } from 'node:crypto';
import { member, object, plain, stringValue } from '../json/tree.js';
import { META, requestMeta, TASKS_EXTENSION } from '../wire/revision.js';
import type { Requester } from '../upstream/connection.js';
import type { JsonObject, JsonValue, RegisteredTool } from '../types.js';
import type { Shown } from './input-required.js';

/** The methods of the tasks extension an agent may send. */
export const TASK_METHODS: ReadonlySet<string> = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

/** How long a task handle the broker issued stays good: past it the task is the agent's no more. */
export const TASK_LIFETIME_MS = 10 * 60_000;
/** The most task handles a session keeps at once; issuing one more forgets the oldest. */
export const MAX_LIVE_TASKS = 64;
/** Bytes of randomness in a handle: one no agent can guess. */
const HANDLE_BYTES = 32;

/** Whether a 2026-07-28 request declares the tasks extension in its own `_meta` capabilities. */
export function declaresTasks(params: JsonValue | undefined): boolean {
  const meta = requestMeta(params);
  const capabilities = meta === undefined ? undefined : member(meta, META.clientCapabilities);
  const extensions = capabilities?.kind === 'object' ? member(capabilities, 'extensions') : undefined;
  return extensions?.kind === 'object' && member(extensions, TASKS_EXTENSION)?.kind === 'object';
}

/** What a task handle stands for: the server's task, on its server, of the call it answered. */
export interface TaskBinding {
  readonly serverTaskId: string;
  readonly upstream: Requester;
  /** The call's tool (undefined for one no server registered) and arguments as sent: what its result is judged as. */
  readonly tool: RegisteredTool | undefined;
  /** The tool's name as the agent called it: what the result's receipt names. */
  readonly name: string;
  readonly args: JsonObject;
  /** When the broker issued the handle: the task's `createdAt` as the agent is told it. */
  readonly createdAt: string;
  /** The input requests of the task's last `input_required` that the agent was shown, by the server's keys. */
  shown: ReadonlyMap<string, Shown>;
}

/** The task handles of one session. */
export interface TaskTable {
  /** The handle the agent is shown for a task a server made of a call. */
  issue(binding: Omit<TaskBinding, 'shown' | 'createdAt'>): string;
  /** The task a handle names, if this session may reach it. */
  find(handle: string): TaskBinding | undefined;
  /** The task has ended, or was cancelled: its handle names nothing more. */
  end(handle: string): void;
}

/** Handles of the broker's own, bound to the session: the guard `task-bound`. */
export class TaskHandles implements TaskTable {
  private readonly live = new Map<string, { binding: TaskBinding; expires: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  issue(binding: Omit<TaskBinding, 'shown' | 'createdAt'>): string {
    const handle = `task_${randomBytes(HANDLE_BYTES).toString('base64url')}`;
    if (this.live.size >= MAX_LIVE_TASKS) this.live.delete(this.live.keys().next().value!);
    this.live.set(handle, { binding: { ...binding, shown: new Map(), createdAt: new Date(this.now()).toISOString() }, expires: this.now() + TASK_LIFETIME_MS });
    return handle;
  }

  find(handle: string): TaskBinding | undefined {
    const entry = this.live.get(handle);
    if (entry === undefined) return undefined;
    if (entry.expires <= this.now()) {
      this.live.delete(handle);
      return undefined;
    }
    return entry.binding;
  }

  end(handle: string): void {
    this.live.delete(handle);
  }
}

/**
 * Without `task-bound`: the agent is shown the server's own task id, and a task method goes to the
 * server with the id it names, to the server that made the task or, for an id the broker never
 * saw, to the session's first server, as a broker that passes task ids through does.
 */
export class RelayedTasks implements TaskTable {
  private readonly seen = new Map<string, TaskBinding>();

  constructor(private readonly first: Requester) {}

  issue(binding: Omit<TaskBinding, 'shown' | 'createdAt'>): string {
    this.seen.set(binding.serverTaskId, { ...binding, shown: new Map(), createdAt: new Date().toISOString() });
    return binding.serverTaskId;
  }

  find(handle: string): TaskBinding {
    return this.seen.get(handle) ?? { serverTaskId: handle, upstream: this.first, tool: undefined, name: '', args: object([]), shown: new Map(), createdAt: new Date().toISOString() };
  }

  end(handle: string): void {
    this.seen.delete(handle);
  }
}

/** The task id a task method's params name; undefined when they name none as a string. */
export const namedTask = (params: JsonValue | undefined): string | undefined => (params?.kind === 'object' ? stringValue(member(params, 'taskId')) : undefined);

/**
 * A task as the agent is shown it, under the agent's handle: the status, the broker's own times
 * and time to live, the server's polling interval when it is a number, and `extra` (a completed
 * task's result, a failed one's error, the input requests shown) as the call path left it. The
 * server's `statusMessage` and anything else it wrote is not passed on.
 */
export function taskShape(handle: string, binding: TaskBinding, status: string, server: JsonValue, extra?: readonly [string, JsonValue]): JsonObject {
  const interval = server.kind === 'object' ? member(server, 'pollIntervalMs') : undefined;
  return object([
    ['taskId', plain(handle)],
    ['status', plain(status)],
    ['createdAt', plain(binding.createdAt)],
    ['lastUpdatedAt', plain(new Date().toISOString())],
    ['ttlMs', plain(TASK_LIFETIME_MS)],
    ['pollIntervalMs', interval?.kind === 'number' ? interval : undefined],
    ...(extra === undefined ? [] : [extra]),
  ]);
}
