// The server, shared by every session of the front door. Each Session listens on the upstream for
// the notices and requests it acts on (tools/list_changed, logging, progress, sampling...); over
// HTTP sessions come and go, so each gets a view of the one upstream whose listeners go with it
// when it ends, and the upstream holds one listener per method however many sessions there have
// been. A notice reaches every live session (each judges its own: progress only for its own
// tokens), but for a log line under `attributeLogs`: it names no request, and may quote one
// session's call, so it reaches a session only when it can be that session's alone (the one
// session with a request in flight, or the only session), and none when it cannot. A request the
// server starts has one answer, so it goes to the latest session opened that is still live, and
// without one it is refused.

import type { JsonValue } from '../types.js';
import type { Requester, ServerRequestHandler } from '../upstream/connection.js';
import { ERROR, brokerError } from '../wire/jsonrpc.js';

type Listener = (params: JsonValue | undefined) => void;

/** A session's view: how many of its requests to the server are unanswered. */
interface ViewState {
  inFlight: number;
}

/** The notice that names no request of any session. */
const LOG_LINE = 'notifications/message';

export class SharedNotices {
  private readonly listeners = new Map<string, Set<{ view: ViewState; listener: Listener }>>();
  /** Each live session's handler of the server's requests, oldest first. */
  private readonly handlers: ServerRequestHandler[] = [];
  private readonly views = new Set<ViewState>();

  constructor(
    private readonly upstream: Requester,
    private readonly attributeLogs: boolean,
  ) {
    upstream.onRequest((method, params) => {
      const latest = this.handlers.at(-1);
      return latest?.(method, params) ?? Promise.resolve({ ok: false, error: brokerError(ERROR.invalidRequest, 'no agent session is open to ask') });
    });
  }

  /** The upstream as one session sees it, and the call that removes that session's listeners. */
  view(): { upstream: Requester; end: () => void } {
    const state: ViewState = { inFlight: 0 };
    this.views.add(state);
    const own: Array<[string, { view: ViewState; listener: Listener }]> = [];
    let handler: ServerRequestHandler | undefined;
    const upstream: Requester = {
      request: async (method, params, timeoutMs, what) => {
        state.inFlight += 1;
        try {
          return await this.upstream.request(method, params, timeoutMs, what);
        } finally {
          state.inFlight -= 1;
        }
      },
      notify: (method, params) => this.upstream.notify(method, params),
      onNotification: (method, listener) => {
        const entry = { view: state, listener };
        own.push([method, entry]);
        this.listen(method).add(entry);
      },
      onRequest: (given) => {
        handler = given;
        this.handlers.push(given);
      },
    };
    const end = () => {
      this.views.delete(state);
      for (const [method, entry] of own) this.listeners.get(method)?.delete(entry);
      if (handler !== undefined) this.handlers.splice(this.handlers.indexOf(handler), 1);
    };
    return { upstream, end };
  }

  private listen(method: string): Set<{ view: ViewState; listener: Listener }> {
    let set = this.listeners.get(method);
    if (set === undefined) {
      const listeners = new Set<{ view: ViewState; listener: Listener }>();
      set = listeners;
      this.listeners.set(method, listeners);
      this.upstream.onNotification(method, (params) => {
        const owner = method === LOG_LINE && this.attributeLogs ? this.soleOwner() : undefined;
        for (const { view, listener } of [...listeners]) if (owner === undefined || view === owner) listener(params);
      });
    }
    return set;
  }

  /**
   * The session a notice naming no request can only be for: the one with a request in flight, or
   * with none in flight the only session. Null when it could be several's: it then reaches none.
   */
  private soleOwner(): ViewState | null {
    const busy = [...this.views].filter((view) => view.inFlight > 0);
    if (busy.length === 1) return busy[0]!;
    return busy.length === 0 && this.views.size === 1 ? [...this.views][0]! : null;
  }
}
