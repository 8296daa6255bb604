// The tasks extension (`io.modelcontextprotocol/tasks`, MCP 2026-07-28) at the broker: possession
// of a server's task id is not authentication, and a naive server numbers its tasks and answers
// any of them for whoever names it. With this guard the agent is shown a handle of the broker's
// for each task, random and bound to the session, the server and the call, and a task method
// naming anything else is refused before any server sees it (src/session/tasks.ts, TaskHandles);
// without it the session relays task ids as they are (RelayedTasks), as a broker that passes
// them through does.

import type { TaskGuard } from './types.js';

export const taskBound: TaskGuard = { name: 'task-bound' };
