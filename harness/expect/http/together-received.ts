import type { HttpExchange, HttpFacts } from '../types.js';
import { expectation } from '../types.js';
import { served } from './answered.js';

/**
 * Two clients of one front door calling a tool at once (`together`): each must get its own
 * answer and the progress of its own token, and nothing that carries the other's marks. A
 * client's marks are its progress token and the text of its arguments' values: the kit quotes a
 * call's query in its answer, its progress and its log line (`rendezvous.<tool>`), so one client's
 * answer, progress or notification reaching the other carries the other's mark.
 */

interface Side {
  client: string;
  token: string | undefined;
  marks: string[];
  received: HttpExchange[];
}

function sidesOf(facts: HttpFacts): Side[] {
  const { step } = facts;
  const together = step.together;
  if (together === undefined) return [];
  const side = (client: string, args: Record<string, unknown> | undefined, token: string | undefined): Side => ({
    client,
    token,
    marks: [...(token === undefined ? [] : [token]), ...Object.values(args ?? {}).filter((value): value is string => typeof value === 'string' && value !== '')],
    received: facts.together?.[client] ?? [],
  });
  return [side(step.client, step.arguments, step.progress_token), side(together.client, together.arguments, together.progress_token)];
}

function progressTokens(exchanges: readonly HttpExchange[]): unknown[] {
  return exchanges.flatMap((exchange) =>
    exchange.messages.flatMap((message) => {
      const { method, params } = (message ?? {}) as { method?: unknown; params?: { progressToken?: unknown } };
      return method === 'notifications/progress' ? [params?.progressToken] : [];
    }),
  );
}

export default expectation({
  block: 'http',
  name: 'together_received',
  doc: "for a `together` call: `own`, each client's call is answered quoting its own arguments and its stream carries progress for its own token; `own-only`, that and nothing either client received carries the other's progress token or argument text",
  properties: { together_received: { enum: ['own', 'own-only'] } },
  checks: {
    'http.own_answered': { class: 'benign', doc: "each client's call is answered with a result carrying its own arguments' text" },
    'http.own_progress': { class: 'benign', doc: 'each client that gave a progress token received progress for it' },
    'http.own_only': { class: 'harm', doc: "no client received the other's answer, progress or notification (its progress token or argument text)" },
  },
  checksFor: (expect) => ['http.own_answered', 'http.own_progress', ...(expect.together_received === 'own-only' ? ['http.own_only'] : [])],
  judge(expect, facts, _judged, fail) {
    const sides = sidesOf(facts);
    if (sides.length === 0) {
      fail('http.own_answered', 'a together call', 'two clients calling at once', 'the step names no together client');
      return;
    }
    for (const [index, side] of sides.entries()) {
      const other = sides[1 - index]!;
      const call = side.received.at(-1);
      if (call === undefined || !served(call) || !side.marks.filter((mark) => mark !== side.token).every((mark) => call.body.includes(mark))) {
        fail('http.own_answered', `${side.client}'s call answered with its own result`, `a result quoting ${side.marks.join(', ')}`, call === undefined ? 'no call made' : `HTTP ${call.status ?? 'no response'} ${call.body.slice(0, 200)}`);
      }
      if (side.token !== undefined && !progressTokens(side.received).includes(side.token)) {
        fail('http.own_progress', `${side.client} receives progress for ${side.token}`, side.token, `progress for ${JSON.stringify(progressTokens(side.received))}`);
      }
      if (expect.together_received !== 'own-only') continue;
      const leaked = other.marks.filter((mark) => side.received.some((exchange) => exchange.body.includes(mark)));
      if (leaked.length > 0) {
        const where = side.received.filter((exchange) => leaked.some((mark) => exchange.body.includes(mark))).map((exchange) => exchange.what);
        fail('http.own_only', `${side.client} receives nothing of ${other.client}'s call`, `none of ${other.marks.join(', ')}`, `${leaked.join(', ')} in ${where.join(', ')}`);
      }
    }
  },
});
