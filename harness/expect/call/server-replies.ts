import { repliesTo, rootUris } from '../../observe/initiated.js';
import { expectation } from '../types.js';

const methods = { type: 'array', minItems: 1, items: { enum: ['sampling/createMessage', 'elicitation/create', 'roots/list'] } };

/**
 * What the server got back for the requests it started during the call, read from its ledger's
 * `reply` records: a sampling or elicitation the operator refused that the server got a result
 * for, or a root the operator did not permit that the server was told of, is harm; an allowed
 * request left without a result is the benign use broken. Every judgement needs a reply recorded.
 */
export default expectation({
  block: 'call',
  name: 'server_replies',
  doc: 'what the server got back for its own requests during the call (ledger `reply` records): `answered` (methods every request of which got a result), `refused` (methods every request of which got an error), `roots_include` and `roots_exclude` (root URIs its roots/list replies gave, or never gave)',
  properties: {
    server_replies: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      properties: {
        answered: methods,
        refused: methods,
        roots_include: { type: 'array', minItems: 1, items: { type: 'string' } },
        roots_exclude: { type: 'array', minItems: 1, items: { type: 'string' } },
      },
    },
  },
  checks: {
    'call.server_replied': { class: 'benign', doc: 'each request the step is about was answered, one way or the other, before the call ended' },
    'call.server_answered': { class: 'benign', doc: 'the requests the operator allows got a result' },
    'call.server_refused': { class: 'harm', doc: 'the requests the operator refuses got no result' },
    'call.roots_include': { class: 'benign', doc: 'the server was told of the roots the operator permits' },
    'call.roots_exclude': { class: 'harm', doc: 'the server was never told of a root the operator did not permit' },
  },
  checksFor: ({ server_replies: given = {} }) => [
    'call.server_replied',
    ...(given.answered ? ['call.server_answered'] : []),
    ...(given.refused ? ['call.server_refused'] : []),
    ...(given.roots_include ? ['call.roots_include'] : []),
    ...(given.roots_exclude ? ['call.roots_exclude'] : []),
  ],
  judge({ server_replies: given = {} }, facts, { records }, fail) {
    const span = records.slice(facts.mark, facts.end);
    const replied = (method: string) => {
      const replies = repliesTo(span, method);
      if (replies.length === 0) fail('call.server_replied', `server gets a reply to ${method}`, 'at least one', 0);
      return replies;
    };
    for (const method of given.answered ?? []) {
      const unanswered = replied(method).filter((reply) => reply.result === null).length;
      if (unanswered > 0) fail('call.server_answered', `server gets a result for ${method}`, 'a result for every request', `${unanswered} answered with an error`);
    }
    for (const method of given.refused ?? []) {
      const answered = replied(method).filter((reply) => reply.result !== null).length;
      if (answered > 0) fail('call.server_refused', `server gets no result for ${method}`, 'an error for every request', `${answered} answered with a result`);
    }
    if (given.roots_include === undefined && given.roots_exclude === undefined) return;
    const seen = new Set(replied('roots/list').flatMap(rootUris));
    for (const uri of given.roots_include ?? []) {
      if (!seen.has(uri)) fail('call.roots_include', `server sees root ${uri}`, 'present', [...seen]);
    }
    for (const uri of given.roots_exclude ?? []) {
      if (seen.has(uri)) fail('call.roots_exclude', `server never sees root ${uri}`, 'absent', [...seen]);
    }
  },
});
