// The guard that inspects the text of a server's own requests before the agent's model or user
// reads it: a sampling request's messages and system prompt, an elicitation's message and form.
// A request carrying a secret or an injection pattern (searched in NFKC) is refused; one that
// passes goes on without its hidden characters and escape sequences (inspect/normalise.ts). An elicitation's URL is left as sent: it must be shown whole, which
// elicitation-url-whole judges.

import type { ServerRequestGuard } from './types.js';
import type { Channel } from '../inspect/channels.js';
import { inspectMessage } from '../inspect/stage.js';
import { presentMembers, withMembers } from '../json/members.js';
import { object } from '../json/tree.js';

/** The members of each method's params that hold text the server wrote for the model or the user. */
const TEXT_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  'sampling/createMessage': ['messages', 'systemPrompt'],
  'elicitation/create': ['message', 'requestedSchema'],
};

/** The outbound stage's channel for each method's text. */
const CHANNEL: Readonly<Record<string, Channel>> = { 'sampling/createMessage': 'sampling', 'elicitation/create': 'elicitation' };

export const requestTextInspected: ServerRequestGuard = {
  name: 'request-text-inspected',
  methods: Object.keys(TEXT_MEMBERS),
  check(request) {
    const present = presentMembers(request.params, TEXT_MEMBERS[request.method] ?? []);
    const inspected = inspectMessage(object(present), CHANNEL[request.method] ?? 'sampling');
    if (!inspected.ok) return { kind: 'refuse', reason: `the request's text was refused: ${inspected.problem}` };
    const normalised = inspected.message.kind === 'object' ? Object.fromEntries(inspected.message.entries) : {};
    return { kind: 'pass', params: withMembers(request.params, normalised) };
  },
};
