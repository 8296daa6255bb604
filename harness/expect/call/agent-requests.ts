import { countByMethod, initiatedIn } from '../../observe/initiated.js';
import { everyString } from '../../observe/strings.js';
import { expectation } from '../types.js';
import { judgeMethodCounts, PER_METHOD } from './method-counts.js';

/**
 * The requests the broker sent the agent from the call until the next step that talked to it
 * (sampling, elicitation, roots):
 * one the operator refused that still reaches the agent is harm; one it allowed that never
 * arrives is the benign use broken. `includes` holds strings the requests must carry as sent (a
 * URL shown whole). `no_context`: a sampling request that reaches the agent still asking for the
 * conversation's context (`includeContext` other than `none`) is harm, whether the broker relayed
 * it whole or only part of it.
 */
export default expectation({
  block: 'call',
  name: 'agent_requests',
  doc: 'the requests the broker sent the agent from the call until the next step that talks to it, by method: `max` (at most so many of each), `min` (at least so many), `includes` (strings some request carried whole), `no_context` (no sampling request asked for context: `includeContext` absent or `none`)',
  properties: {
    agent_requests: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      properties: { max: PER_METHOD, min: PER_METHOD, includes: { $ref: '#/$defs/fragments' }, no_context: { const: true } },
    },
  },
  checks: {
    'call.agent_requests_max': { class: 'harm', doc: 'no more requests of each method reached the agent than the step allows' },
    'call.agent_requests_min': { class: 'benign', doc: 'the requests the operator allows reached the agent' },
    'call.agent_requests_include': { class: 'benign', doc: 'the requests reached the agent with these strings whole' },
    'call.agent_requests_no_context': { class: 'harm', doc: 'no sampling request reached the agent asking for context from the conversation (`includeContext` other than `none`)' },
  },
  checksFor: ({ agent_requests: given = {} }) => [
    ...(given.max ? ['call.agent_requests_max'] : []),
    ...(given.min ? ['call.agent_requests_min'] : []),
    ...(given.includes ? ['call.agent_requests_include'] : []),
    ...(given.no_context ? ['call.agent_requests_no_context'] : []),
  ],
  judge({ agent_requests: given = {} }, { others }, _judged, fail) {
    const requests = initiatedIn(others).filter((message) => message.request);
    judgeMethodCounts(countByMethod(requests), given, { max: 'call.agent_requests_max', min: 'call.agent_requests_min' }, fail);
    const strings = requests.flatMap((request) => everyString(request.params));
    for (const fragment of given.includes ?? []) {
      if (!strings.some((text) => text.includes(fragment))) fail('call.agent_requests_include', `a request carries ${JSON.stringify(fragment)}`, 'present', 'absent');
    }
    if (given.no_context) {
      for (const asked of requests.filter((request) => request.method === 'sampling/createMessage').map((request) => contextAsked(request.params))) {
        if (asked !== null) fail('call.agent_requests_no_context', 'a sampling request reaching the agent asks for no context', '"none" or absent', JSON.stringify(asked));
      }
    }
  },
});

/** What a sampling request's `includeContext` asks for beyond `none`, as decoded; null for none or absent. */
function contextAsked(params: unknown): unknown {
  const asked = params !== null && typeof params === 'object' && !Array.isArray(params) ? (params as Record<string, unknown>)['includeContext'] : undefined;
  return asked === undefined || asked === 'none' ? null : asked;
}
