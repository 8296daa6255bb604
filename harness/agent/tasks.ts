/**
 * The tasks extension (`io.modelcontextprotocol/tasks`, MCP 2026-07-28; ext-tasks
 * specification/draft/tasks.md), as the agent reads it: a client declares the extension in each
 * request's `_meta` capabilities; a server may then answer a tools/call with a task
 * (`resultType: "task"`, a `taskId`), which the client polls with `tasks/get` until it ends
 * (`completed` with the call's `result`, `failed` with its `error`, or `cancelled`), answering a
 * task that asks for input (`input_required`, its `inputRequests`) with `tasks/update`.
 */

/** The extension's identifier, under `extensions` in the agent's capabilities. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/**
 * Bound on the polls of one task: the kit ends a task after at most 16 (servers/kit/tasks.ts), so
 * a broker whose task is still going after this many is looping, not working. Polls are sent one
 * after the other with no wait: a task ends by being polled, never by time.
 */
export const MAX_TASK_POLLS = 32;

/** True for a call answered with a task rather than its result. */
export const isTaskCreated = (result: Record<string, unknown>): boolean => result.resultType === 'task';

/** The statuses after which a task changes no more (tasks.md, "Task Status"). */
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/** Whether a task (a `tasks/get` result) has ended. */
export const taskEnded = (task: Record<string, unknown>): boolean => typeof task.status === 'string' && TERMINAL.has(task.status);

/** Whether a task (a `tasks/get` result) is asking for input, which its `inputRequests` carry. */
export const taskAsksInput = (task: Record<string, unknown>): boolean => task.status === 'input_required' && typeof task.taskId === 'string';

/** The task id of a task, or undefined for one without a string id. */
export const taskIdOf = (task: Record<string, unknown>): string | undefined => (typeof task.taskId === 'string' ? task.taskId : undefined);

/**
 * What an ended task answers the call with: a completed task's `result` (the call's result), a
 * failed task's `error` (the call's JSON-RPC error), and a cancelled task itself; `problem` for a
 * task whose payload is missing or not an object.
 */
export function endedAs(task: Record<string, unknown>): { result: Record<string, unknown> } | { error: { code: number; message: string } } | { problem: string } {
  if (task.status === 'cancelled') return { result: task };
  const payload = task.status === 'completed' ? task.result : task.error;
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return { problem: `a ${String(task.status)} task without its ${task.status === 'completed' ? 'result' : 'error'}` };
  if (task.status === 'completed') return { result: payload as Record<string, unknown> };
  const { code, message } = payload as { code?: unknown; message?: unknown };
  return { error: { code: Number(code), message: String(message ?? '') } };
}
