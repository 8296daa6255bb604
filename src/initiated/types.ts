// The guard kinds that judge what a server starts on its own: its requests to the agent
// (sampling, elicitation, roots), the agent's answers on their way back to it, and its
// notifications. Each kind names the methods it acts on; the relay runs only those.

import type { JsonObject, JsonValue } from '../json/tree.js';
import type { ServerEnv } from '../guards/types.js';
import type { ServerRequests } from './config.js';

/** What the agent declared in its initialize request's capabilities. */
export interface ClientFacts {
  readonly sampling: boolean;
  readonly samplingTools: boolean;
  readonly elicitationForm: boolean;
  readonly elicitationUrl: boolean;
  readonly roots: boolean;
}

export interface InitiatedContext {
  readonly policy: ServerRequests;
  readonly client: ClientFacts;
  readonly serverEnv: ServerEnv;
  /** How many messages of this method the server has started this session, this one included. */
  readonly count: number;
}

/** A server's request or notification as a guard judges it. */
export interface Initiated {
  readonly method: string;
  /** An absent params is judged as `{}`. */
  readonly params: JsonObject;
}

export type RequestVerdict = { readonly kind: 'pass'; readonly params: JsonObject } | { readonly kind: 'refuse'; readonly reason: string };

/** Judges a server's request before the agent sees it: refused (the server gets an error), or passed on, perhaps reshaped. */
export interface ServerRequestGuard {
  readonly name: string;
  readonly methods: readonly string[];
  check(request: Initiated, context: InitiatedContext): RequestVerdict;
}

/** Reshapes the agent's result to a server's request before the server sees it. */
export interface ServerReplyGuard {
  readonly name: string;
  readonly methods: readonly string[];
  reshape(result: JsonValue, context: InitiatedContext): JsonValue;
}

export interface NotificationContext extends InitiatedContext {
  /** For `notifications/progress`: whether its token is one the broker issued for a call still in flight. */
  readonly ownProgress: boolean;
}

export type NotificationVerdict = { readonly kind: 'forward'; readonly params: JsonObject } | { readonly kind: 'drop' };

/** Judges a server's notification before the agent sees it: dropped, or forwarded, perhaps reshaped. */
export interface NotificationGuard {
  readonly name: string;
  readonly methods: readonly string[];
  check(notification: Initiated, context: NotificationContext): NotificationVerdict;
}
