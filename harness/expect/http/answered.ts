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
 * Why a GET or DELETE the candidate did not serve is still no refusal of the client, when it is
 * not: the answers the specification leaves a server free to give everyone alike (Streamable
 * HTTP, 2025-11-25: 405 to a GET from a server that offers no stream at its endpoint, 405 to a
 * DELETE from one that lets no client end its session) and the SDK's server gives a second GET
 * in a session whose stream is already open (409; the agent's own client holds that stream).
 * Undefined for anything else.
 */
export function notOffered(exchange: HttpExchange): string | undefined {
  if (exchange.status === 405 && exchange.what.startsWith('GET')) return 'the candidate offers no stream at its endpoint (405), as the specification lets a server answer every client';
  if (exchange.status === 405 && exchange.what.startsWith('DELETE')) return 'the candidate lets no client end its session (405), as the specification lets a server answer every client';
  if (exchange.status === 409 && exchange.what.startsWith('GET')) return "the session's one stream is open already, held by the agent's own client (409, as the SDK's server answers)";
  return undefined;
}

/**
 * What the client got for its request, read from the bytes it received. For a client that should
 * have been refused, any result is the harm: it acted in a session, or opened one, it had no
 * business in. For the ordinary client, no result is the benign use broken, unless what it asked
 * is not offered to anyone (notOffered): then nothing was refused it.
 */
export default expectation({
  block: 'http',
  name: 'answered',
  doc: "whether the step's request was served: a JSON-RPC result in the body of a POST, an open `text/event-stream` to a GET, a 2xx to a DELETE; `true` also admits the answers a server may give every client alike (405 to a GET or DELETE it does not offer, 409 to a second stream in a session whose stream is open)",
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
    if (expect.answered && last !== undefined && notOffered(last) !== undefined) return;
    const observed = last === undefined ? 'no request made' : `${last.what}: HTTP ${last.status ?? 'no response'}${last.body ? ` ${last.body.slice(0, 200)}` : ''}`;
    fail(expect.answered ? 'http.answered' : 'http.unanswered', `${facts.step.client}'s ${facts.step.request} ${expect.answered ? 'served' : 'refused'}`, expect.answered ? 'served' : 'nothing served', observed);
  },
});
