// The server's notifications, shared by every session of the front door. Each Session listens on
// the upstream for the notices it acts on (tools/list_changed); over HTTP sessions come and go,
// so each gets a view of the one upstream whose listeners go with it when it ends, and the
// upstream holds one listener per method however many sessions there have been.

import type { Requester } from '../upstream/connection.js';

export class SharedNotices {
  private readonly listeners = new Map<string, Set<() => void>>();

  constructor(private readonly upstream: Requester) {}

  /** The upstream as one session sees it, and the call that removes that session's listeners. */
  view(): { upstream: Requester; end: () => void } {
    const own: Array<[string, () => void]> = [];
    const upstream: Requester = {
      request: (method, params, timeoutMs, what) => this.upstream.request(method, params, timeoutMs, what),
      notify: (method, params) => this.upstream.notify(method, params),
      onNotification: (method, listener) => {
        own.push([method, listener]);
        this.listen(method).add(listener);
      },
    };
    return { upstream, end: () => own.forEach(([method, listener]) => this.listeners.get(method)?.delete(listener)) };
  }

  private listen(method: string): Set<() => void> {
    let set = this.listeners.get(method);
    if (set === undefined) {
      const listeners = new Set<() => void>();
      set = listeners;
      this.listeners.set(method, listeners);
      this.upstream.onNotification(method, () => [...listeners].forEach((listener) => listener()));
    }
    return set;
  }
}
