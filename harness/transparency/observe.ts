import { isLosslessNumber, parse as parseLossless } from 'lossless-json';
import { AgentClient, type Answer } from '../agent/client.js';
import type { AgentChannel } from '../candidates/types.js';
import type { ClientSide } from '../scenario/types.js';
import { PROGRESS_TOKEN, type Operation } from './script.js';

/** What the agent received for one operation: its answer, the server's requests it was asked, the progress of its own token. */
export interface Observed {
  id: string;
  answer: Answer;
  /** The requests (sampling, elicitation, roots, ...) that reached the agent while the operation ran: `{ method, params }`. */
  requests: unknown[];
  /** The `notifications/progress` params for the agent's own token that reached it while the operation ran. */
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

/** What of the unsolicited lines from `from` on belongs to the operation: server requests, and progress for its token. */
function sideTraffic(lines: readonly string[]): Pick<Observed, 'requests' | 'progress'> {
  const requests: unknown[] = [];
  const progress: unknown[] = [];
  for (const line of lines) {
    const message = decode(line);
    if (message === undefined || typeof message.method !== 'string') continue;
    // roots/list belongs to the session, not to an operation: a server asks it when it likes
    // (server-everything, some time after initialized), so it is observed once for the session.
    if (message.id !== undefined && message.method !== 'roots/list') requests.push({ method: message.method, params: message.params ?? {} });
    else if (message.method === 'notifications/progress') {
      const params = message.params as Record<string, unknown> | undefined;
      const token = params?.progressToken;
      if ((isLosslessNumber(token) ? token.toString() : token) === PROGRESS_TOKEN) progress.push(params);
    }
  }
  return { requests, progress };
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
 * Runs a scripted session on `channel`: initialize (observed as `initialize`: its protocol version
 * and the server's instructions, what of the answer is the server's), then each operation in turn,
 * each bounded by `timeoutMs`. With `reads` 'listed', every resource `resources/list` gives is read
 * right after it; with a list, those URIs are (the direct session's, so both read the same).
 */
export async function observeSession(channel: AgentChannel, side: ClientSide, operations: readonly Operation[], reads: 'listed' | readonly string[] | undefined, timeoutMs: number, signal?: AbortSignal): Promise<SessionObservation> {
  const agent = new AgentClient(channel, timeoutMs, side);
  const observed: Observed[] = [];
  let listedUris: string[] = [];
  const initialize = await agent.initialize();
  observed.push({ id: 'initialize', answer: initialize, requests: [], progress: [] });
  if (initialize.kind !== 'result') return { observed, listedUris };
  const run = async (operation: Operation) => {
    const from = agent.unsolicited.length;
    const answer = signal?.aborted ? ({ kind: 'timeout' } as const) : await agent.request(operation.method, operation.params ?? {});
    observed.push({ id: operation.id, answer, ...sideTraffic(agent.unsolicited.slice(from)) });
    return answer;
  };
  for (const operation of operations) {
    const answer = await run(operation);
    if (operation.method !== 'resources/list' || reads === undefined) continue;
    listedUris = reads === 'listed' ? urisOf(answer) : [...reads];
    for (const uri of listedUris) await run({ id: `resources/read:${uri}`, method: 'resources/read', params: { uri } });
  }
  if (side.roots !== undefined) observed.push(rootsAsked(agent.unsolicited));
  return { observed, listedUris };
}
