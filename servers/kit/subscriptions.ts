/**
 * `subscriptions/listen` (2026-07-28, stdio): the streams a client opened for the change notices it
 * chose. basic/patterns/subscriptions: "The server **MUST NOT** send notification types the client
 * has not explicitly requested", and "All notifications delivered on the stream carry
 * `io.modelcontextprotocol/subscriptionId` in `_meta` ... The value is the JSON-RPC ID of the
 * `subscriptions/listen` request". The kit's change notices are its phase switch's
 * (`notify_list_changed`, `notify_features_changed`); in 2026-07-28 each goes to every listener
 * that opted in to its type, tagged with that listener's id, and nowhere else.
 */
import { isRecord } from './jsonrpc.js';
import { writeJson } from './json-text.js';

/** The filter field that opts in to each change notice the kit sends. */
const FILTER_FIELD: Readonly<Record<string, string>> = {
  'notifications/tools/list_changed': 'toolsListChanged',
  'notifications/prompts/list_changed': 'promptsListChanged',
  'notifications/resources/list_changed': 'resourcesListChanged',
};

/** The acknowledgment, "the first message carrying the subscription's ID". */
const ACKNOWLEDGED = 'notifications/subscriptions/acknowledged';

/** A listener: its id's raw text (the tag), and the notices it opted in to. */
interface Listener {
  id: string;
  notices: ReadonlySet<string>;
}

/** A line to send for the listeners: its text and method. */
export interface ListenerLine {
  line: string;
  method: string;
}

export class Listeners {
  /** By the id's value, as JSON text of the decoded id, so a cancellation matches however it writes the id. */
  private readonly open = new Map<string, Listener>();

  /**
   * Opens a listener for a subscriptions/listen request (`id` its raw text) and returns its
   * acknowledgment. "The `notifications` field in the acknowledgment reflects the subset the server
   * agreed to honor": the list changes the kit can notify, and the resource subscriptions, which it
   * honours by never changing a resource.
   */
  listen(id: string, params: unknown): ListenerLine {
    const filter = isRecord(params) && isRecord(params['notifications']) ? params['notifications'] : {};
    const honoured: Record<string, true | string[]> = {};
    const notices = new Set<string>();
    for (const [method, field] of Object.entries(FILTER_FIELD)) {
      if (filter[field] !== true) continue;
      honoured[field] = true;
      notices.add(method);
    }
    const uris = filter['resourceSubscriptions'];
    if (Array.isArray(uris) && uris.every((uri) => typeof uri === 'string')) honoured['resourceSubscriptions'] = uris;
    this.open.set(canonical(id), { id, notices });
    return { line: tagged(ACKNOWLEDGED, id, `,"notifications":${writeJson(honoured)}`), method: ACKNOWLEDGED };
  }

  /** A client's notifications/cancelled: the listener its `requestId` names, if any, is closed. */
  cancel(params: unknown): void {
    const requestId = isRecord(params) ? params['requestId'] : undefined;
    if (typeof requestId === 'string' || typeof requestId === 'number') this.open.delete(JSON.stringify(requestId));
  }

  /** The lines that carry `method` to every listener that opted in to it, each tagged with its id. */
  notices(method: string): ListenerLine[] {
    return [...this.open.values()].filter((listener) => listener.notices.has(method)).map((listener) => ({ line: tagged(method, listener.id, ''), method }));
  }
}

/** A notification tagged with a listener's id; `rest` is raw members after `_meta`. */
function tagged(method: string, id: string, rest: string): string {
  return `{"jsonrpc":"2.0","method":${JSON.stringify(method)},"params":{"_meta":{"io.modelcontextprotocol/subscriptionId":${id}}${rest}}}`;
}

function canonical(rawId: string): string {
  return JSON.stringify(JSON.parse(rawId));
}
