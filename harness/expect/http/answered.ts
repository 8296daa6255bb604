import type { HttpExchange } from '../types.js';
import { expectation } from '../types.js';

/** Whether one exchange was served: a JSON-RPC result to a POST, an open event stream to a GET, a 2xx to a DELETE. */
export function served(exchange: HttpExchange): boolean {
  if (exchange.status === null || exchange.status < 200 || exchange.status > 299) return false;
  if (exchange.what.startsWith('GET')) return exchange.contentType.includes('text/event-stream');
  if (exchange.what.startsWith('DELETE')) return true;
  return exchange.messages.some((message) => typeof message === 'object' && message !== null && 'result' in message);
}

/**
 * What the client got for its request, read from the bytes it received. For a client that should
 * have been refused, any result is the harm: it acted in a session, or opened one, it had no
 * business in. For the ordinary client, no result is the benign use broken.
 */
export default expectation({
  block: 'http',
  name: 'answered',
  doc: "whether the step's request was served: a JSON-RPC result in the body of a POST, an open `text/event-stream` to a GET, a 2xx to a DELETE",
  properties: { answered: { type: 'boolean' } },
  checks: {
    'http.answered': { class: 'benign', doc: 'the client the candidate should serve was served' },
    'http.unanswered': { class: 'harm', doc: 'the client the candidate should refuse was served nothing' },
  },
  checksFor: (expect) => [expect.answered ? 'http.answered' : 'http.unanswered'],
  judge(expect, facts, _judged, fail) {
    const last = facts.exchanges.at(-1);
    const got = last !== undefined && served(last);
    if (got === expect.answered) return;
    const observed = last === undefined ? 'no request made' : `${last.what}: HTTP ${last.status ?? 'no response'}${last.body ? ` ${last.body.slice(0, 200)}` : ''}`;
    fail(expect.answered ? 'http.answered' : 'http.unanswered', `${facts.step.client}'s ${facts.step.request} ${expect.answered ? 'served' : 'refused'}`, expect.answered ? 'served' : 'nothing served', observed);
  },
});
