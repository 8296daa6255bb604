import type { AgentClient, Answer } from '../agent/client.js';
import { AGENT_MAX_PAGES } from '../agent/client.js';
import type { RequestStep } from '../scenario/types.js';

type Item = Record<string, unknown>;

/** Each listing method: the member its pages list items under, and the member that keys an item. */
const LISTINGS: Readonly<Record<string, { field: string; key: string }>> = {
  'resources/list': { field: 'resources', key: 'uri' },
  'resources/templates/list': { field: 'resourceTemplates', key: 'uriTemplate' },
  'prompts/list': { field: 'prompts', key: 'name' },
};

/** What one request step observed: the answer, and for a listing every item of every page, by key. */
export interface RequestOutcome {
  answer: Answer;
  items?: Map<string, Item>;
}

/**
 * Sends the step's request as the agent. A listing is followed over every page (up to the agent's
 * own bound), so a broker cannot hide an item past a cursor; its answer is the first that was no
 * page, or the last page.
 */
export async function sendRequest(agent: AgentClient, step: RequestStep, timeoutMs: number): Promise<RequestOutcome> {
  const listing = LISTINGS[step.method];
  if (listing === undefined) return { answer: await agent.request(step.method, step.params ?? {}, timeoutMs) };
  const items = new Map<string, Item>();
  let cursor: unknown;
  for (let pages = 1; pages <= AGENT_MAX_PAGES; pages++) {
    const answer = await agent.request(step.method, { ...step.params, ...(cursor === undefined ? {} : { cursor }) }, timeoutMs);
    if (answer.kind !== 'result' || !Array.isArray(answer.result[listing.field])) return { answer, items };
    for (const item of answer.result[listing.field] as Item[]) items.set(String(item[listing.key]), item);
    cursor = answer.result.nextCursor;
    if (typeof cursor !== 'string') return { answer, items };
  }
  return { answer: { kind: 'malformed', raw: '', why: `more than ${AGENT_MAX_PAGES} pages` }, items };
}
