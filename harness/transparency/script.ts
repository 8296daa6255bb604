import type { ClientSide } from '../scenario/types.js';
import type { OfficialServerId, Prepared } from './servers.js';

/** One request the agent makes, the same direct and through the candidate. */
export interface Operation {
  /** Unique in the session and stable: the method, and what it names (`tools/call:echo`). */
  id: string;
  method: string;
  params?: Record<string, unknown>;
}

/**
 * A scripted benign session with one official server: what the agent declares and answers (its
 * fixed benign answers to the server's sampling, elicitation and roots requests), and the
 * operations it makes, in order. `operations` is given the prepared server, since a path or a
 * root it names is the session's own.
 */
export interface SessionScript {
  server: OfficialServerId;
  /** The transports it runs over: each is a session of its own. */
  transports: ReadonlyArray<'stdio' | 'http'>;
  side: (prepared: Prepared) => ClientSide;
  operations: (prepared: Prepared) => Operation[];
  /** After `resources/list`, read every resource it listed (direct; the candidate reads the same URIs). */
  readListed?: boolean;
  /** The server's tools the session does not call, each with why: every other listed tool is called. */
  skipped: Readonly<Record<string, string>>;
}

/** A tools/call operation; `as` tells two calls of one tool apart. With `progress`, its progress token is its id, so its progress is known for its own wherever it arrives. */
export function call(name: string, args: Record<string, unknown>, options: { as?: string; progress?: boolean } = {}): Operation {
  const id = `tools/call:${name}${options.as === undefined ? '' : `#${options.as}`}`;
  return {
    id,
    method: 'tools/call',
    params: { name, arguments: args, ...(options.progress ? { _meta: { progressToken: id } } : {}) },
  };
}

/** A request that is not a tool call; `as` names what it is about. */
export function request(method: string, params?: Record<string, unknown>, as?: string): Operation {
  return { id: as === undefined ? method : `${method}:${as}`, method, ...(params === undefined ? {} : { params }) };
}

/** The listings every session takes first: what the agent is offered. */
export const LISTINGS: readonly Operation[] = [request('tools/list', {}), request('resources/list', {}), request('resources/templates/list', {}), request('prompts/list', {})];
