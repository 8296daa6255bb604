// The guards on a server's elicitation requests (elicitation/create): the server asks the agent's
// user for input, in a form the agent renders or at a URL the user is sent to. Refused unless the
// operator allows elicitation for the server; a form with a field that asks for a credential is
// refused (MCP forbids it: a credential goes to the server by URL, out of the agent's sight; the
// field is judged in credential-field.ts); a URL must be
// shown exactly as it will be opened, so one whose text could read as another address is
// refused; a mode the agent did not declare is refused; and each is bounded. The broker never
// opens the URL itself: it only passes it on.

import { member, stringValue } from '../json/tree.js';
import { escapeServerText } from '../inspect/sanitize.js';
import type { ServerRequestGuard } from './types.js';
import { codePoints, stringsIn } from '../json/members.js';
import { credentialCue } from './credential-field.js';

const ELICITATION = ['elicitation/create'];

/** A form mode request says so, or says nothing (the 2025-06-18 form). */
const modeOf = (params: Parameters<ServerRequestGuard['check']>[0]['params']): string => stringValue(member(params, 'mode')) ?? 'form';

export const elicitationAllowed: ServerRequestGuard = {
  name: 'elicitation-allowed',
  methods: ELICITATION,
  check: (request, { policy }) => (policy.elicitation.allow ? { kind: 'pass', params: request.params } : { kind: 'refuse', reason: 'the operator does not allow this server to elicit input from the user' }),
};

export const elicitationModeDeclared: ServerRequestGuard = {
  name: 'elicitation-mode-declared',
  methods: ELICITATION,
  check(request, { client }) {
    const mode = modeOf(request.params);
    const declared = mode === 'form' ? client.elicitationForm : mode === 'url' ? client.elicitationUrl : false;
    return declared ? { kind: 'pass', params: request.params } : { kind: 'refuse', reason: `the agent did not declare elicitation in ${mode} mode` };
  },
};

export const elicitationNoCredentials: ServerRequestGuard = {
  name: 'elicitation-no-credentials',
  methods: ELICITATION,
  check(request) {
    if (modeOf(request.params) !== 'form') return { kind: 'pass', params: request.params };
    const schema = member(request.params, 'requestedSchema');
    const properties = schema?.kind === 'object' ? member(schema, 'properties') : undefined;
    for (const [name, field] of properties?.kind === 'object' ? properties.entries : []) {
      const cue = credentialCue(name, field);
      if (cue !== undefined) return { kind: 'refuse', reason: `the form asks the user for a credential (a field's ${cue})` };
    }
    return { kind: 'pass', params: request.params };
  },
};

export const elicitationUrlWhole: ServerRequestGuard = {
  name: 'elicitation-url-whole',
  methods: ELICITATION,
  check(request) {
    if (modeOf(request.params) !== 'url') return { kind: 'pass', params: request.params };
    const url = stringValue(member(request.params, 'url'));
    if (url === undefined || !URL.canParse(url)) return { kind: 'refuse', reason: 'a URL-mode request needs an absolute URL' };
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:') return { kind: 'refuse', reason: 'a URL-mode request must name an https URL' };
    // A name before @ reads as the host; a hidden or reordering character makes the text read as
    // another address than the one that opens; either way the user is not shown where they go.
    if (parsed.username !== '' || parsed.password !== '') return { kind: 'refuse', reason: 'the URL carries a user name, which reads as its host' };
    if (escapeServerText(url) !== url || /\s/u.test(url)) return { kind: 'refuse', reason: 'the URL holds characters that change how it reads' };
    return { kind: 'pass', params: request.params };
  },
};

export const elicitationBounds: ServerRequestGuard = {
  name: 'elicitation-bounds',
  methods: ELICITATION,
  check(request, { policy: { elicitation }, count }) {
    if (count > elicitation.maxRequests) return { kind: 'refuse', reason: `the server has already made the ${elicitation.maxRequests} elicitation requests a session allows` };
    const chars = codePoints(['message', 'requestedSchema', 'url'].flatMap((key) => stringsIn(member(request.params, key))));
    if (chars > elicitation.maxMessageChars) return { kind: 'refuse', reason: `the request holds ${chars} characters, over the bound of ${elicitation.maxMessageChars}` };
    return { kind: 'pass', params: request.params };
  },
};
