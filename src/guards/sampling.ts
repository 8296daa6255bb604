// The guards on a server's sampling requests (sampling/createMessage): the server asks the
// agent's model to write something, which costs the user tokens and puts the server's words in
// front of the model. Refused unless the operator allows sampling for the server; then bounded,
// and never tool-enabled unless the operator allows it and the agent declared `sampling.tools`.

import { member } from '../json/tree.js';
import type { ServerRequestGuard } from './types.js';
import { codePoints, stringsIn } from '../json/members.js';
import { canonicalNumber, compareNumbers } from '../json/number.js';

const SAMPLING = ['sampling/createMessage'];

export const samplingAllowed: ServerRequestGuard = {
  name: 'sampling-allowed',
  methods: SAMPLING,
  check: (request, { policy }) => (policy.sampling.allow ? { kind: 'pass', params: request.params } : { kind: 'refuse', reason: 'the operator does not allow this server to request sampling' }),
};

export const samplingBounds: ServerRequestGuard = {
  name: 'sampling-bounds',
  methods: SAMPLING,
  check(request, { policy: { sampling }, count }) {
    if (count > sampling.maxRequests) return { kind: 'refuse', reason: `the server has already made the ${sampling.maxRequests} sampling requests a session allows` };
    // Decided on the literal the agent will get, by its exact value: Number('4096.0000000000001')
    // is 4096, an integer within the bound, though the server asked for more.
    const maxTokens = member(request.params, 'maxTokens');
    const asked = maxTokens?.kind === 'number' ? canonicalNumber(maxTokens.text) : '';
    if (!/^[1-9]\d*$/.test(asked) || compareNumbers(asked, String(sampling.maxTokens)) > 0) {
      return { kind: 'refuse', reason: `a sampling request must ask for 1 to ${sampling.maxTokens} tokens` };
    }
    const chars = codePoints([...stringsIn(member(request.params, 'messages')), ...stringsIn(member(request.params, 'systemPrompt'))]);
    if (chars > sampling.maxMessageChars) return { kind: 'refuse', reason: `its messages hold ${chars} characters, over the bound of ${sampling.maxMessageChars}` };
    return { kind: 'pass', params: request.params };
  },
};

export const samplingToolsDeclared: ServerRequestGuard = {
  name: 'sampling-tools-declared',
  methods: SAMPLING,
  check(request, { policy, client }) {
    const offersTools = member(request.params, 'tools') !== undefined || member(request.params, 'toolChoice') !== undefined;
    if (!offersTools || (policy.sampling.allowTools && client.samplingTools)) return { kind: 'pass', params: request.params };
    return {
      kind: 'refuse',
      reason: client.samplingTools ? 'the operator does not allow this server tool-enabled sampling' : 'the agent did not declare sampling with tools',
    };
  },
};

/**
 * `includeContext` other than `none` asks the client to attach to the prompt what the conversation
 * holds from this server or from every server (client/sampling: soft-deprecated, for a client that
 * declares `sampling.context`). The broker never declares it to a server, and what other servers
 * said is theirs and the user's, not this server's to have summarised back to it: refused.
 */
export const samplingNoContext: ServerRequestGuard = {
  name: 'sampling-no-context',
  methods: SAMPLING,
  check(request) {
    const asked = member(request.params, 'includeContext');
    if (asked === undefined || (asked.kind === 'string' && asked.value === 'none')) return { kind: 'pass', params: request.params };
    return { kind: 'refuse', reason: 'a sampling request may not ask for context from the conversation (includeContext other than "none")' };
  },
};
