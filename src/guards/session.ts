// Guards on serving: which tools the agent may see (and so call), and whether there is anything
// to serve. A tool the agent may not see is answered exactly as a name that exists nowhere.

import type { ServeGuard, VisibilityGuard } from './types.js';

export const registeredCallsOnly: VisibilityGuard = {
  name: 'registered-calls-only',
  // Without it a call to any name is forwarded, as a transparent proxy would.
  visible: (_name, tool) => tool !== undefined,
};

export const agentVisibility: VisibilityGuard = {
  name: 'agent-visibility',
  // An agent's list names the server's tools; a name no tool has is looked up as itself.
  visible: (name, tool, { agent, agents }) =>
    agents === undefined || (agent !== undefined && (agents.get(agent)?.has(tool?.tool ?? name) ?? false)),
};

export const nothingRegistered: ServeGuard = {
  name: 'nothing-registered',
  // A broker serving no tools hides a misconfiguration behind an empty, working session.
  check: (count) => (count === 0 ? 'no tool registered' : null),
};
