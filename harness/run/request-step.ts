import type { AgentClient, Answer } from '../agent/client.js';
import { AGENT_MAX_PAGES } from '../agent/client.js';
import { LISTED, offeredParams, type Names } from '../candidates/offered-names.js';
import type { RequestStep } from '../scenario/types.js';

type Item = Record<string, unknown>;

/** The listings a request step follows page by page (a tools listing is the `list` step's). */
const LISTINGS = ['resources/list', 'resources/templates/list', 'prompts/list'];

/** What one request step observed: the answer, and for a listing every item of every page, by key. */
export interface RequestOutcome {
  answer: Answer;
  items?: Map<string, Item>;
}

/**
 * Sends the step's request as the agent. A listing is followed over every page (up to the agent's
 * own bound), so a broker cannot hide an item past a cursor; its answer is the first that was no
 * page, or the last page. For a candidate that offers things under names of its own (`names`), the
 * request names them as it offers them, and a listing's items are keyed by the scenario's names.
 */
export async function sendRequest(agent: AgentClient, step: RequestStep, timeoutMs: number, names?: Names): Promise<RequestOutcome> {
  const params = offeredParams(names, step.method, step.params ?? {});
  const listing = LISTINGS.includes(step.method) ? LISTED[step.method] : undefined;
  if (listing === undefined) return { answer: await agent.request(step.method, params, timeoutMs) };
  const items = new Map<string, Item>();
  let cursor: unknown;
  for (let pages = 1; pages <= AGENT_MAX_PAGES; pages++) {
    const answer = await agent.request(step.method, { ...params, ...(cursor === undefined ? {} : { cursor }) }, timeoutMs);
    if (answer.kind !== 'result' || !Array.isArray(answer.result[listing.field])) return { answer, items };
    for (const item of answer.result[listing.field] as Item[]) {
      const key = String(item[listing.key]);
      items.set(names?.scenario(key) ?? key, item);
    }
    cursor = answer.result.nextCursor;
    if (typeof cursor !== 'string') return { answer, items };
  }
  return { answer: { kind: 'malformed', raw: '', why: `more than ${AGENT_MAX_PAGES} pages` }, items };
}
