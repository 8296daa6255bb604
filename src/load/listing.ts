// Load's first step: the handshake with the server and its complete tool listing, read from the
// raw text of every page. The whole step shares one deadline (connect_timeout_ms), and every
// listing guard sees every page; a refusal refuses the listing as a whole. A rediscovery during
// the session lists again the same way, without the handshake.

import { ListingRefused, UpstreamError } from '../errors.js';
import type { ListingGuard } from '../guards/types.js';
import { NO_CAPABILITIES, capabilitiesValue } from '../operator/client-capabilities.js';
import { BROKER_NAME, BROKER_VERSION, LATEST_PROTOCOL_VERSION, isSupportedProtocolVersion } from '../session/identity.js';
import { member, object, plain, stringValue } from '../json/tree.js';
import { presentMembers } from '../json/members.js';
import { CACHE_MEMBERS } from '../wire/revision.js';
import type { Requester, Reply } from '../upstream/connection.js';
import { sharedDeadline } from '../upstream/deadline.js';
import type { Discovered } from './discover.js';
import type { ClientFacts, Limits, JsonObject, JsonValue, ListedTool, ListingPage } from '../types.js';

/**
 * Stops even a listing no guard bounds (every listing guard disabled), so the broker can never
 * page forever. It is not a protection the suite tests, only a floor under the process.
 */
export const SAFETY_STOP_PAGES = 10_000;

/** Asks one request of the server within a shared deadline; an error answer fails the step. */
type Ask = (method: string, params: JsonValue, what: string) => Promise<JsonValue>;

function askWithin(server: Requester, serverId: string, remaining: () => number): Ask {
  return async (method, params, what) => {
    const reply: Reply = await server.request(method, params, remaining(), what);
    if (!reply.ok) {
      const message = stringValue(member(reply.error, 'message')) ?? '';
      throw new UpstreamError(`server "${serverId}" answered ${what} with an error: ${message}`);
    }
    return reply.result;
  };
}

/** What Load reads of a server: its tools, the `instructions` its initialize answer gave, and whether it declared `logging`. */
export interface Listing {
  readonly tools: ListedTool[];
  /** Undefined when it gave none, or gave something that is not a string. */
  readonly instructions: string | undefined;
  /** Whether it may be asked `logging/setLevel`. */
  readonly logging: boolean;
  /**
   * The caching hints (`ttlMs`, `cacheScope`) the server gave its listing's first page, as
   * written: what the agent's listing carries only with the guard cache-hints-private disabled.
   */
  readonly cacheHints: readonly (readonly [string, JsonValue])[];
}

/** How Load begins with a server: the handshake, or what a 2026-07-28 server's `server/discover` said (src/load/discover.ts). */
export interface Beginning {
  /** What is left of the start-up deadline; absent, connect_timeout_ms from now. */
  readonly remaining?: () => number;
  /** A 2026-07-28 server has no handshake: what it said of itself instead. */
  readonly discovered?: Discovered;
}

/** `declared` are the client capabilities the broker declares to the server (operator/client-capabilities.ts). */
export async function initializeAndList(
  server: Requester,
  serverId: string,
  limits: Limits,
  guards: readonly ListingGuard[],
  declared: ClientFacts = NO_CAPABILITIES,
  { remaining = sharedDeadline(limits.connectTimeoutMs), discovered }: Beginning = {},
): Promise<Listing> {
  const ask = askWithin(server, serverId, remaining);
  if (discovered !== undefined) return { ...discovered, ...(await listAllPages(ask, serverId, limits, guards)) };
  const init = await ask(
    'initialize',
    object([
      ['protocolVersion', plain(LATEST_PROTOCOL_VERSION)],
      ['capabilities', capabilitiesValue(declared)],
      ['clientInfo', plain({ name: BROKER_NAME, version: BROKER_VERSION })],
    ]),
    'initialize',
  );
  const version = init.kind === 'object' ? stringValue(member(init, 'protocolVersion')) : undefined;
  if (version === undefined || !isSupportedProtocolVersion(version)) {
    throw new UpstreamError(`server "${serverId}" answered initialize without a protocol version the broker speaks`);
  }
  server.notify('notifications/initialized', undefined);
  const capabilities = init.kind === 'object' ? member(init, 'capabilities') : undefined;
  const logging = capabilities?.kind === 'object' && member(capabilities, 'logging')?.kind === 'object';
  const instructions = init.kind === 'object' ? stringValue(member(init, 'instructions')) : undefined;
  return { ...(await listAllPages(ask, serverId, limits, guards)), instructions, logging };
}

/**
 * Lists the tools again during a session, with Load's bounds: the same listing guards, and
 * connect_timeout_ms over every page together.
 */
export async function relist(server: Requester, serverId: string, limits: Limits, guards: readonly ListingGuard[]): Promise<ListedTool[]> {
  return (await listAllPages(askWithin(server, serverId, sharedDeadline(limits.connectTimeoutMs)), serverId, limits, guards)).tools;
}

async function listAllPages(ask: Ask, serverId: string, limits: Limits, guards: readonly ListingGuard[]): Promise<Pick<Listing, 'tools' | 'cacheHints'>> {
  const checks = guards.map((guard) => ({ name: guard.name, check: guard.begin(limits) }));
  const byName = new Map<string, ListedTool>();
  let cacheHints: Listing['cacheHints'] = [];
  let cursor: string | undefined;
  for (let number = 1; ; number++) {
    if (number > SAFETY_STOP_PAGES) {
      throw new UpstreamError(`server "${serverId}" listing did not end within ${SAFETY_STOP_PAGES} pages`);
    }
    const params = cursor === undefined ? object([]) : plain({ cursor });
    const result = await ask('tools/list', params, `tools/list page ${number}`);
    if (number === 1 && result.kind === 'object') cacheHints = presentMembers(result, CACHE_MEMBERS);
    const page = readPage(result, number, serverId);
    for (const { name, check } of checks) {
      const refusal = check(page);
      if (refusal !== null) throw new ListingRefused(name, refusal);
    }
    // Without listing-unique a later entry replaces an earlier one, as a map-building client does.
    for (const tool of page.tools) byName.set(tool.name, tool);
    if (page.nextCursor === undefined) return { tools: [...byName.values()], cacheHints };
    cursor = page.nextCursor;
  }
}

function readPage(result: JsonValue, number: number, serverId: string): ListingPage {
  const bad = (problem: string): never => {
    throw new UpstreamError(`server "${serverId}" sent a malformed tools/list page ${number}: ${problem}`);
  };
  if (result.kind !== 'object') return bad('the result is not an object');
  const tools = member(result, 'tools');
  if (tools?.kind !== 'array') return bad('tools is not an array');
  const next = member(result, 'nextCursor');
  if (next !== undefined && next.kind !== 'string') bad('nextCursor is not a string');
  return {
    number,
    tools: tools.items.map((item, i) => readTool(item, (problem) => bad(`tool ${i}: ${problem}`))),
    nextCursor: stringValue(next),
  };
}

function readTool(value: JsonValue, bad: (problem: string) => never): ListedTool {
  if (value.kind !== 'object') return bad('not an object');
  const name = member(value, 'name');
  if (name?.kind !== 'string' || name.value === '') return bad('name is not a non-empty string');
  const description = member(value, 'description');
  if (description !== undefined && description.kind !== 'string') bad('description is not a string');
  const inputSchema = member(value, 'inputSchema');
  if (inputSchema?.kind !== 'object') return bad('inputSchema is not an object');
  const annotations = member(value, 'annotations');
  if (annotations !== undefined && annotations.kind !== 'object') bad('annotations is not an object');
  const outputSchema = member(value, 'outputSchema');
  if (outputSchema !== undefined && outputSchema.kind !== 'object') bad('outputSchema is not an object');
  const title = member(value, 'title');
  if (title !== undefined && title.kind !== 'string') bad('title is not a string');
  // Icons are decoration: ones that are not an array are dropped, never a reason to refuse the listing.
  const icons = member(value, 'icons');
  const execution = member(value, 'execution');
  if (execution !== undefined && execution.kind !== 'object') bad('execution is not an object');
  return {
    name: name.value,
    title: stringValue(title),
    description: stringValue(description),
    inputSchema,
    annotations: annotations?.kind === 'object' ? annotations : undefined,
    outputSchema: outputSchema?.kind === 'object' ? outputSchema : undefined,
    execution: execution?.kind === 'object' ? knownExecution(execution, bad) : undefined,
    icons: icons?.kind === 'array' ? icons : undefined,
  };
}

/** MCP 2025-11-25's `ToolExecution.taskSupport` values. */
const TASK_SUPPORT = new Set(['forbidden', 'optional', 'required']);

/**
 * A tool's `execution` with only the members the broker knows (`taskSupport`), so nothing it
 * cannot judge reaches the agent; an empty object when it has none of them.
 */
function knownExecution(execution: JsonObject, bad: (problem: string) => never): JsonObject {
  const taskSupport = member(execution, 'taskSupport');
  if (taskSupport === undefined) return object([]);
  if (taskSupport.kind !== 'string' || !TASK_SUPPORT.has(taskSupport.value)) return bad('execution.taskSupport is not forbidden, optional or required');
  return object([['taskSupport', taskSupport]]);
}
