// Guards on serving: what may be called, and whether there is anything to serve.

import type { CallGuard, ServeGuard } from './types.js';

export const registeredCallsOnly: CallGuard = {
  name: 'registered-calls-only',
  // Answered as JSON-RPC's unknown tool; the server never sees the call.
  check: (tool, registered) => (registered.has(tool) ? null : `Unknown tool: ${tool}`),
};

export const nothingRegistered: ServeGuard = {
  name: 'nothing-registered',
  // A broker serving no tools hides a misconfiguration behind an empty, working session.
  check: (count) => (count === 0 ? 'no tool registered' : null),
};
