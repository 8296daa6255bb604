// Load's listing of the resources, templates and prompts the operator configured, read from the
// raw text of every page. Only the features the operator configured are asked for, so a server
// is never asked for what nothing would offer. Each listing shares one deadline
// (connect_timeout_ms) and the bounds of a tool listing (max_pages, max_tools as a bound on
// items, no cursor twice, no key twice); a listing that breaks one, or that the server refuses,
// lists nothing of its kind: what is not listed soundly is not offered.

import { member, object, plain, stringValue } from '../json/tree.js';
import type { Requester } from '../upstream/connection.js';
import { sharedDeadline } from '../upstream/deadline.js';
import type { Config, Descriptor, JsonObject } from '../types.js';
import { LISTINGS, type ListingMethod } from './methods.js';

/** The listing methods each configured feature needs. */
function methodsFor(config: Config): ListingMethod[] {
  return [
    ...(config.resources === undefined ? [] : (['resources/list', 'resources/templates/list'] as const)),
    ...(config.prompts === undefined ? [] : (['prompts/list'] as const)),
  ];
}

export async function listFeatures(server: Requester, config: Config): Promise<Descriptor[]> {
  const listed: Descriptor[] = [];
  for (const method of methodsFor(config)) listed.push(...((await listOne(server, config, method)) ?? []));
  return listed;
}

/** Every item of one listing, or undefined when it could not be listed soundly. */
async function listOne(server: Requester, config: Config, method: ListingMethod): Promise<Descriptor[] | undefined> {
  const { kind, field, key } = LISTINGS[method];
  const { maxPages, maxTools, connectTimeoutMs } = config.limits;
  const remaining = sharedDeadline(connectTimeoutMs);
  const items = new Map<string, Descriptor>();
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let number = 1; number <= maxPages; number++) {
    let reply;
    try {
      reply = await server.request(method, cursor === undefined ? object([]) : plain({ cursor }), remaining(), `${method} page ${number}`);
    } catch {
      return undefined;
    }
    if (!reply.ok || reply.result.kind !== 'object') return undefined;
    const page = member(reply.result, field);
    if (page?.kind !== 'array') return undefined;
    for (const item of page.items) {
      const id = item.kind === 'object' ? stringValue(member(item, key)) : undefined;
      if (item.kind !== 'object' || id === undefined || id === '' || items.has(id)) return undefined;
      items.set(id, { kind, key: id, listed: item as JsonObject });
    }
    if (items.size > maxTools) return undefined;
    const next = member(reply.result, 'nextCursor');
    if (next === undefined) return [...items.values()];
    if (next.kind !== 'string' || cursors.has(next.value)) return undefined;
    cursors.add(next.value);
    cursor = next.value;
  }
  return undefined;
}
