// The tasks extension (`io.modelcontextprotocol/tasks`, MCP 2026-07-28; ext-tasks
// specification/draft/tasks.md) at the broker, which serves no tasks. It offers no server the
// extension: the client capabilities it declares upstream are its own (src/upstream/per-request.ts),
// never the agent's, so a server answers every call with its result ("A server **MUST NOT** return
// `CreateTaskResult` to a client that did not include the extension capability"), and that result
// goes through the call path as any other: inspected, bounded, its requests for input judged. A
// server that answers with a task all the same is answered as a result of a `resultType` the broker
// does not know, withheld (session.ts, dispatch). What is left is the task methods an agent may
// send with an id it got elsewhere (guessed, another session's, another server's): under the guard
// `tasks-withheld` they are refused before any server sees them; without it they are relayed to the
// server as they are.

import { brokerError, ERROR } from '../wire/jsonrpc.js';
import type { Reply, Requester } from '../upstream/connection.js';
import type { JsonObject, JsonValue } from '../types.js';

/** The methods of the tasks extension an agent may send. */
export const TASK_METHODS: ReadonlySet<string> = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

/** The answer to a task method: the broker has no task to name, and says why. */
export function taskMethodRefusal(method: string): JsonObject {
  return brokerError(ERROR.methodNotFound, `Method not found: ${method} (the broker serves no tasks: no server is offered the tasks extension, so every call is answered with its result)`);
}

/**
 * Without `tasks-withheld`: the method goes to the server as the agent sent it (its own `_meta`
 * declarations replaced by the broker's), whatever task id it names.
 */
export function relayTaskMethod(upstream: Requester, method: string, params: JsonValue | undefined, timeoutMs: number): Promise<Reply> {
  return upstream.request(method, params, timeoutMs, method);
}
