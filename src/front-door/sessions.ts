// The front door's sessions: one per agent connection, each with its own Session state, found by
// the id the broker gave at initialize. An id is bound to the credential (the Authorization
// header) its initialize carried: a request that presents the id with another credential, or
// none, is answered as for an id that does not exist, so it learns nothing of the session.

import { createHash, timingSafeEqual } from 'node:crypto';

/** More live sessions than this and an initialize is refused: every session holds state. */
export const MAX_SESSIONS = 64;

/** The SHA-256 of the credential presented; the credential itself is never kept. */
export function digestOf(credential: string | undefined): Buffer {
  return createHash('sha256').update(credential === undefined ? '\u0000none' : `=${credential}`).digest();
}

interface Entry<S> {
  readonly state: S;
  readonly credential: Buffer;
}

export class SessionTable<S> {
  private readonly live = new Map<string, Entry<S>>();

  constructor(
    private readonly makeId: () => string,
    /** Whether a session answers only its own credential (the session-binding guard). */
    private readonly bound: boolean,
  ) {}

  get full(): boolean {
    return this.live.size >= MAX_SESSIONS;
  }

  /** A new session's id, bound to `credential`; undefined when the table is full. */
  open(credential: string | undefined, state: (id: string) => S): { id: string; state: S } | undefined {
    if (this.full) return undefined;
    let id = this.makeId();
    // A counter never repeats, and 256 random bits do not in practice; a repeat still must not
    // hand over a live session.
    while (this.live.has(id)) id = this.makeId();
    const entry = { state: state(id), credential: digestOf(credential) };
    this.live.set(id, entry);
    return { id, state: entry.state };
  }

  /** The session `id` names, when `credential` is the one it was opened with. */
  find(id: string, credential: string | undefined): S | undefined {
    const entry = this.live.get(id);
    if (entry === undefined) return undefined;
    if (this.bound && !timingSafeEqual(entry.credential, digestOf(credential))) return undefined;
    return entry.state;
  }

  end(id: string): void {
    this.live.delete(id);
  }

  states(): S[] {
    return [...this.live.values()].map((entry) => entry.state);
  }
}
