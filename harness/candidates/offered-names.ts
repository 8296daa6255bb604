import type { Candidate } from './types.js';

/**
 * Where a request names a tool, prompt, resource or template, and where a listing keys its items:
 * the places a broker that offers what its servers offer under names of its own (an aggregator's
 * `<server>__<name>`, `Candidate.names`) renames them.
 */
export type Names = NonNullable<Candidate['names']>;

/** Each listing method: the member its items are under, and the member that names an item. */
export const LISTED: Readonly<Record<string, { field: string; key: string }>> = {
  'tools/list': { field: 'tools', key: 'name' },
  'resources/list': { field: 'resources', key: 'uri' },
  'resources/templates/list': { field: 'resourceTemplates', key: 'uriTemplate' },
  'prompts/list': { field: 'prompts', key: 'name' },
};

type Params = Record<string, unknown>;

const isRecord = (value: unknown): value is Params => value !== null && typeof value === 'object' && !Array.isArray(value);

/** `record` with its string member `key` renamed by `rename`, when it has one. */
function renamed(record: Params, key: string, rename: (name: string) => string | undefined): Params {
  const value = record[key];
  if (typeof value !== 'string') return record;
  return { ...record, [key]: rename(value) ?? value };
}

/**
 * A request's params with what they name renamed as the candidate offers it: the tool of a call,
 * the prompt of a get, the resource of a read or (un)subscribe, the prompt or resource a
 * completion refers to.
 */
export function offeredParams<P>(names: Names | undefined, method: string, params: P): P {
  if (names === undefined || !isRecord(params)) return params;
  return offeredRecord(names, method, params) as P;
}

function offeredRecord(names: Names, method: string, params: Params): Params {
  const offered = (name: string) => names.offered(name);
  switch (method) {
    case 'tools/call':
    case 'prompts/get':
      return renamed(params, 'name', offered);
    case 'resources/read':
    case 'resources/subscribe':
    case 'resources/unsubscribe':
      return renamed(params, 'uri', offered);
    case 'completion/complete':
      return isRecord(params.ref) ? { ...params, ref: renamed(renamed(params.ref, 'name', offered), 'uri', offered) } : params;
    default:
      return params;
  }
}

/** A listing's result with each item named as the scenario (or the server) names it; any other result as it is. */
export function scenarioListing(names: Names | undefined, method: string, result: Params): Params {
  const listed = LISTED[method];
  if (names === undefined || listed === undefined || !Array.isArray(result[listed.field])) return result;
  const items = (result[listed.field] as unknown[]).map((item) => (isRecord(item) ? renamed(item, listed.key, (name) => names.scenario(name)) : item));
  return { ...result, [listed.field]: items };
}
