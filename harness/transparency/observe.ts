import { isLosslessNumber, parse as parseLossless, stringify as stringifyLossless } from 'lossless-json';
import { offeredParams, scenarioListing, type Names } from '../candidates/offered-names.js';
import { AgentClient, type Answer } from '../agent/client.js';
import type { AgentChannel } from '../candidates/types.js';
import type { ClientSide } from '../scenario/types.js';
import type { Operation } from './script.js';

/** What the agent received for one operation: its answer, the server's requests it was asked, the progress of its own token. */
export interface Observed {
  id: string;
  answer: Answer;
  /** The requests (sampling, elicitation, roots, ...) that reached the agent while the operation ran: `{ method, params }`. */
  requests: unknown[];
  /** The `notifications/progress` params for the operation's own token that reached the agent in the session. */
  progress: unknown[];
}

/** A session's observations, and the resource URIs its `resources/list` gave (for the candidate to read the same). */
export interface SessionObservation {
  observed: Observed[];
  listedUris: string[];
  /** The end of the process's stderr, kept when the session never got past initialize. */
  stderrTail?: string;
}

/** Decoded losslessly (harness/agent/client.ts), or undefined for a line that is not a JSON object. */
function decode(line: string): Record<string, unknown> | undefined {
  try {
    const value = parseLossless(line);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The URIs a `resources/list` answer names. */
function urisOf(answer: Answer): string[] {
  if (answer.kind !== 'result' || !Array.isArray(answer.result.resources)) return [];
  return (answer.result.resources as Array<Record<string, unknown>>).flatMap((resource) => (typeof resource.uri === 'string' ? [resource.uri] : []));
}

/** The server requests among the unsolicited lines of an operation's time: what it asked the agent while it ran. */
function requestsIn(lines: readonly string[]): unknown[] {
  const requests: unknown[] = [];
  for (const line of lines) {
    const message = decode(line);
    // roots/list belongs to the session, not to an operation: a server asks it when it likes
    // (server-everything, some time after initialized), so it is observed once for the session.
    if (message !== undefined && typeof message.method === 'string' && message.id !== undefined && message.method !== 'roots/list') requests.push({ method: message.method, params: message.params ?? {} });
  }
  return requests;
}

/**
 * The progress for `token` among every unsolicited line of the session. Known by its token, it is
 * the operation's wherever it arrived: a broker that sends progress on its session's GET stream and
 * the answer on the POST's (two HTTP responses, in no order the agent can rely on) may deliver the
 * last progress just after the answer, which would otherwise be lost or not by the timing of one run.
 */
function progressFor(token: string, lines: readonly string[]): unknown[] {
  return lines.flatMap((line) => {
    const message = decode(line);
    if (message?.method !== 'notifications/progress' || message.id !== undefined) return [];
    const params = message.params as Record<string, unknown> | undefined;
    const given = params?.progressToken;
    return (isLosslessNumber(given) ? given.toString() : given) === token ? [params] : [];
  });
}

/** The progress token an operation's request carries, if any. */
function tokenOf(operation: Operation): string | undefined {
  const meta = (operation.params as { _meta?: { progressToken?: unknown } } | undefined)?._meta;
  return typeof meta?.progressToken === 'string' ? meta.progressToken : undefined;
}

/**
 * Whether the server's roots/list request reached the agent at some time in the session: observed
 * as one pseudo-operation (`roots/list`), its answer `{ asked }`, since when a server asks is its
 * own affair. Only for an agent that declares roots.
 */
function rootsAsked(lines: readonly string[]): Observed {
  const asked = lines.some((line) => {
    const message = decode(line);
    return message?.method === 'roots/list' && message.id !== undefined;
  });
  const result = { asked };
  return { id: 'roots/list', answer: { kind: 'result', result, raw: JSON.stringify({ jsonrpc: '2.0', id: 0, result }) }, requests: [], progress: [] };
}

/**
 * A listing's answer with its items named as the server names them, for a candidate that offers
 * them under names of its own: the raw line too, which the judge reads (losslessly).
 */
function asServerNames(names: Names | undefined, method: string, answer: Answer): Answer {
  if (names === undefined || answer.kind !== 'result') return answer;
  const line = parseLossless(answer.raw) as Record<string, unknown>;
  const result = scenarioListing(names, method, line.result as Record<string, unknown>);
  return { kind: 'result', result: scenarioListing(names, method, answer.result), raw: stringifyLossless({ ...line, result }) ?? answer.raw };
}

/**
 * Runs a scripted session on `channel`: initialize (observed as `initialize`: its protocol version
 * and the server's instructions, what of the answer is the server's), then each operation in turn,
 * each bounded by `timeoutMs`. With `reads` 'listed', every resource `resources/list` gives is read
 * right after it; with a list, those URIs are (the direct session's, so both read the same). With
 * `names` (a candidate offering things under names of its own), each request names them as it
 * offers them, and each listing is read under the server's names.
 */
export async function observeSession(channel: AgentChannel, side: ClientSide, operations: readonly Operation[], reads: 'listed' | readonly string[] | undefined, timeoutMs: number, signal?: AbortSignal, names?: Names): Promise<SessionObservation> {
  const agent = new AgentClient(channel, timeoutMs, side);
  const observed: Observed[] = [];
  let listedUris: string[] = [];
  const initialize = await agent.initialize();
  observed.push({ id: 'initialize', answer: initialize, requests: [], progress: [] });
  if (initialize.kind !== 'result') return { observed, listedUris };
  const tokens = new Map<Observed, string>();
  const run = async (operation: Operation) => {
    const from = agent.unsolicited.length;
    const answer = signal?.aborted ? ({ kind: 'timeout' } as const) : asServerNames(names, operation.method, await agent.request(operation.method, offeredParams(names, operation.method, operation.params ?? {})));
    const entry: Observed = { id: operation.id, answer, requests: requestsIn(agent.unsolicited.slice(from)), progress: [] };
    const token = tokenOf(operation);
    if (token !== undefined) tokens.set(entry, token);
    observed.push(entry);
    return answer;
  };
  for (const operation of operations) {
    const answer = await run(operation);
    if (operation.method !== 'resources/list' || reads === undefined) continue;
    listedUris = reads === 'listed' ? urisOf(answer) : [...reads];
    for (const uri of listedUris) await run({ id: `resources/read:${uri}`, method: 'resources/read', params: { uri } });
  }
  for (const [entry, token] of tokens) entry.progress = progressFor(token, agent.unsolicited);
  if (side.roots !== undefined) observed.push(rootsAsked(agent.unsolicited));
  return { observed, listedUris };
}
