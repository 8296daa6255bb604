import { expectation } from '../types.js';

/**
 * The canary is a listener schemas and redirects point at: nobody may fetch it, and whatever
 * does reach it must not carry a credential. Every request it saw is evidence of a fetch.
 */
export default expectation({
  block: 'scenario',
  name: 'canary',
  doc: "`canary_requests`: how many requests the canary listener may receive; `canary_headers_exclude`: texts no header of any request it received may contain",
  properties: {
    canary_requests: { type: 'integer', minimum: 0 },
    canary_headers_exclude: { $ref: '#/$defs/fragments' },
  },
  checks: {
    'canary.requests': { class: 'harm', doc: 'nothing fetched what a server pointed at' },
    'canary.headers_exclude': { class: 'harm', doc: 'no credential reached the canary' },
  },
  checksFor: (expect) => [...(expect.canary_requests === undefined ? [] : ['canary.requests']), ...(expect.canary_headers_exclude === undefined ? [] : ['canary.headers_exclude'])],
  judge(expect, { canary }, _judged, fail) {
    if (expect.canary_requests !== undefined && canary.requests > expect.canary_requests) {
      fail('canary.requests', 'nothing fetched', `at most ${expect.canary_requests} requests to the canary`, canary.requests);
    }
    for (const text of expect.canary_headers_exclude ?? []) {
      for (const request of canary.records) {
        const holders = Object.entries(request.headers).filter(([, value]) => value.includes(text)).map(([name]) => name);
        if (holders.length > 0) fail('canary.headers_exclude', `canary never receives ${JSON.stringify(text)}`, 'in no header', `in ${holders.join(', ')} of ${request.method} ${request.path}`);
      }
    }
  },
});
