import { parse as parseLossless, isLosslessNumber } from 'lossless-json';
import type { LedgerRecord, ReplyRecord } from '../../servers/kit/ledger.js';
import { inputRequestsOf, isInputRequired } from '../agent/input-required.js';
import { taskAsksInput } from '../agent/tasks.js';

/**
 * What a broker sent the agent of a server's own accord, read from the lines the agent received
 * besides its answers: requests (sampling, elicitation, roots, ping) and notifications. In
 * 2026-07-28 a server's requests come as the input requests of an `input_required` answer, which
 * the agent keeps among these lines: each is one request here, counted as 2025-11-25's are; so
 * are those of a task asking for input.
 */
export interface Initiated {
  method: string;
  /** A request carries an id; a notification does not. */
  request: boolean;
  params: unknown;
  raw: string;
}

/** The lines that are requests or notifications, and the requests for input of `input_required` answers; other answers and undecodable lines are left out. */
export function initiatedIn(lines: readonly string[]): Initiated[] {
  return lines.flatMap((raw) => {
    let message: unknown;
    try {
      message = parseLossless(raw);
    } catch {
      return [];
    }
    if (message === null || typeof message !== 'object' || Array.isArray(message)) return [];
    const { method, id, params, result } = message as Record<string, unknown>;
    if (typeof method === 'string') return [{ method, request: id !== undefined, params, raw }];
    // A task asking for input (the tasks extension) carries its requests as an input_required result does.
    if (result === null || typeof result !== 'object' || !(isInputRequired(result as Record<string, unknown>) || taskAsksInput(result as Record<string, unknown>))) return [];
    return inputRequestsOf(result as Record<string, unknown>).map((asked) => ({ method: asked.method, request: true, params: asked.params, raw }));
  });
}

/** How many of each method, among these. */
export function countByMethod(messages: readonly Initiated[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { method } of messages) counts.set(method, (counts.get(method) ?? 0) + 1);
  return counts;
}

/** A progress notification's token as text (a number as its digits); undefined when it has none. */
export function progressToken(message: Initiated): string | undefined {
  const params = message.params as Record<string, unknown> | undefined;
  const token = params?.progressToken;
  if (typeof token === 'string') return token;
  return isLosslessNumber(token) || typeof token === 'number' ? String(token) : undefined;
}

/** The replies the server recorded (`ask.<tool>`) to its own requests of `method`. */
export const repliesTo = (records: readonly LedgerRecord[], method: string) =>
  records.filter((r): r is ReplyRecord => r.ev === 'reply' && r.method === method);

/** The root URIs a roots/list reply gave the server. */
export function rootUris(reply: ReplyRecord): string[] {
  const roots = (reply.result as { roots?: unknown } | null)?.roots;
  return Array.isArray(roots) ? roots.flatMap((root) => (typeof (root as { uri?: unknown })?.uri === 'string' ? [(root as { uri: string }).uri] : [])) : [];
}
