// The guard that inspects the text of a server's own requests before the agent's model or user
// reads it: a sampling request's messages and system prompt, an elicitation's message and form.
// A request carrying a secret or an injection pattern is refused; one that passes goes on in its
// normalised form. An elicitation's URL is left as sent: it must be shown whole, which
// elicitation-url-whole judges.

import type { ServerRequestGuard } from './types.js';
import { inspectOutbound } from '../inspect/outbound.js';
import { presentMembers, withMembers } from '../json/members.js';
import { object } from '../json/tree.js';

/** The members of each method's params that hold text the server wrote for the model or the user. */
const TEXT_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  'sampling/createMessage': ['messages', 'systemPrompt'],
  'elicitation/create': ['message', 'requestedSchema'],
};

export const requestTextInspected: ServerRequestGuard = {
  name: 'request-text-inspected',
  methods: Object.keys(TEXT_MEMBERS),
  check(request) {
    const present = presentMembers(request.params, TEXT_MEMBERS[request.method] ?? []);
    const inspected = inspectOutbound(object(present));
    if (!inspected.ok) return { kind: 'refuse', reason: `the request's text was refused: ${inspected.problem}` };
    const normalised = inspected.value.kind === 'object' ? Object.fromEntries(inspected.value.entries) : {};
    return { kind: 'pass', params: withMembers(request.params, normalised) };
  },
};
