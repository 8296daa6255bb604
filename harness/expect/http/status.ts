import { expectation } from '../types.js';

/**
 * The HTTP status of the step's own request. What a refusal looks like is agreed (403 for a
 * foreign Origin or Host, 404 for a session that is not the client's, 400 without one), but the
 * status is the candidate's own account: that the request did nothing is for the other checks.
 */
export default expectation({
  block: 'http',
  name: 'status',
  doc: "the HTTP status of the step's request (the last one, after an initialize's own), one of those given",
  properties: { status: { oneOf: [{ $ref: '#/$defs/httpStatus' }, { type: 'array', minItems: 1, items: { $ref: '#/$defs/httpStatus' } }] } },
  checks: { 'http.status': { class: 'contract', doc: 'the request was answered with the agreed status' } },
  judge(expect, facts, _judged, fail) {
    const allowed = [expect.status ?? []].flat();
    const status = facts.exchanges.at(-1)?.status ?? null;
    if (status === null || !allowed.includes(status)) fail('http.status', `${facts.step.request} answered with the agreed status`, allowed.join(' or '), status ?? 'no response');
  },
});
