// The tasks extension (`io.modelcontextprotocol/tasks`, MCP 2026-07-28) at the broker, which serves
// no tasks: possession of a server's task id is not authentication, and a naive server numbers
// its tasks and answers any of them for anyone who names it. With this guard an agent's
// `tasks/get`, `tasks/update` and `tasks/cancel` are refused before any server sees them
// (src/session/tasks.ts); without it the session relays them to the server as they are, as a
// broker that passes task ids through does.

import type { TaskGuard } from './types.js';

export const tasksWithheld: TaskGuard = { name: 'tasks-withheld' };
