// Guards on the broker's own HTTP front door (docs/front-door.md). The plan they shape starts as
// a naive server would be: listening on every interface, answering any Origin and any Host,
// numbering its sessions, serving whoever presents a session's id and asking no credential. Each guard takes one of
// those away, so removing it gives back exactly that naivety (FDR-1 to FDR-5).

import { randomBytes } from 'node:crypto';

export interface FrontDoorPlan {
  /** Where to listen when the operator names no host; undefined is every interface (node:http's default). */
  readonly defaultHost: string | undefined;
  /** Refuse a request whose Origin the operator did not list (a browser page's). */
  readonly checkOrigin: boolean;
  /** Refuse a request whose Host is not a name of the address listened on (DNS rebinding). */
  readonly checkHost: boolean;
  /** Refuse a request without the operator's credential, when the operator set one. */
  readonly requireCredential: boolean;
  /** A session answers only requests carrying the credential its initialize carried. */
  readonly bindSessions: boolean;
  /** Makes a new session's id. */
  readonly sessionId: () => string;
  /** A server's log line reaches only the session it can be told to be for, never every session. */
  readonly attributeLogs: boolean;
}

export interface FrontDoorGuard {
  readonly name: string;
  plan(plan: FrontDoorPlan): FrontDoorPlan;
}

/** The plan with no front-door guard: the naive server each guard is measured against. */
export function naiveFrontDoor(): FrontDoorPlan {
  let next = 0;
  return { defaultHost: undefined, checkOrigin: false, checkHost: false, requireCredential: false, bindSessions: false, sessionId: () => String((next += 1)), attributeLogs: false };
}

/** Bytes of randomness in a session id: 256 bits, far past guessing (FDR-4). */
const SESSION_ID_BYTES = 32;

export const frontDoorLoopback: FrontDoorGuard = {
  name: 'front-door-loopback',
  // Unless the operator names an address, only this machine can connect (FDR-1).
  plan: (plan) => ({ ...plan, defaultHost: '127.0.0.1' }),
};

export const originCheck: FrontDoorGuard = {
  name: 'origin-check',
  // A page in the agent's browser can post to loopback; its Origin says so (FDR-2).
  plan: (plan) => ({ ...plan, checkOrigin: true }),
};

export const hostCheck: FrontDoorGuard = {
  name: 'host-check',
  // A name the attacker controls, rebound to 127.0.0.1, arrives with that name as its Host (FDR-2).
  plan: (plan) => ({ ...plan, checkHost: true }),
};

export const frontDoorCredential: FrontDoorGuard = {
  name: 'front-door-credential',
  // Loopback is every local process and every page the user's browser opens; the operator's
  // credential is what tells the agent from them.
  plan: (plan) => ({ ...plan, requireCredential: true }),
};

export const sessionBinding: FrontDoorGuard = {
  name: 'session-binding',
  // An id seen by someone else (a log, a proxy) is not enough to act in the session (FDR-3).
  plan: (plan) => ({ ...plan, bindSessions: true }),
};

export const sessionIdsUnguessable: FrontDoorGuard = {
  name: 'session-ids-unguessable',
  // From the system's CSPRNG, so no id tells anything about another (FDR-4).
  plan: (plan) => ({ ...plan, sessionId: () => randomBytes(SESSION_ID_BYTES).toString('base64url') }),
};

export const logLinesAttributed: FrontDoorGuard = {
  name: 'log-lines-attributed',
  // A log line names no request: from a server the sessions share, it may quote one client's
  // call, so it goes only where it can belong to one session alone (FDR-6).
  plan: (plan) => ({ ...plan, attributeLogs: true }),
};
