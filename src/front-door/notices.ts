// The server, shared by every session of the front door. Each Session listens on the upstream for
// the notices and requests it acts on (tools/list_changed, logging, progress, sampling...); over
// HTTP sessions come and go, so each gets a view of the one upstream whose listeners go with it
// when it ends, and the upstream holds one listener per method however many sessions there have
// been. A notice reaches every live session (each judges its own: progress only for its own
// tokens); a request the server starts has one answer, so it goes to the latest session opened
// that is still live, and without one it is refused.

import type { JsonValue } from '../types.js';
import type { Requester, ServerRequestHandler } from '../upstream/connection.js';
import { ERROR, brokerError } from '../wire/jsonrpc.js';

type Listener = (params: JsonValue | undefined) => void;

export class SharedNotices {
  private readonly listeners = new Map<string, Set<Listener>>();
  /** Each live session's handler of the server's requests, oldest first. */
  private readonly handlers: ServerRequestHandler[] = [];

  constructor(private readonly upstream: Requester) {
    upstream.onRequest((method, params) => {
      const latest = this.handlers.at(-1);
      return latest?.(method, params) ?? Promise.resolve({ ok: false, error: brokerError(ERROR.invalidRequest, 'no agent session is open to ask') });
    });
  }

  /** The upstream as one session sees it, and the call that removes that session's listeners. */
  view(): { upstream: Requester; end: () => void } {
    const own: Array<[string, Listener]> = [];
    let handler: ServerRequestHandler | undefined;
    const upstream: Requester = {
      request: (method, params, timeoutMs, what) => this.upstream.request(method, params, timeoutMs, what),
      notify: (method, params) => this.upstream.notify(method, params),
      onNotification: (method, listener) => {
        own.push([method, listener]);
        this.listen(method).add(listener);
      },
      onRequest: (given) => {
        handler = given;
        this.handlers.push(given);
      },
    };
    const end = () => {
      for (const [method, listener] of own) this.listeners.get(method)?.delete(listener);
      if (handler !== undefined) this.handlers.splice(this.handlers.indexOf(handler), 1);
    };
    return { upstream, end };
  }

  private listen(method: string): Set<Listener> {
    let set = this.listeners.get(method);
    if (set === undefined) {
      const listeners = new Set<Listener>();
      set = listeners;
      this.listeners.set(method, listeners);
      this.upstream.onNotification(method, (params) => [...listeners].forEach((listener) => listener(params)));
    }
    return set;
  }
}
