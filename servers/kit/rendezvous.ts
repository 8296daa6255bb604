/**
 * `rendezvous.<tool>=N`: calls of a tool held together, as a slow tool serving several clients at
 * once holds them. On arrival each call gets a progress notification for its own token and a log
 * line, both quoting the call's `query`; its answer, quoting the query too, waits until N calls
 * have arrived (a count, never a time), and then every held answer goes out in arrival order. So
 * each client's result, progress and log line carries its own marker, and a broker sharing the
 * server among its clients is seen if it hands one client's to another.
 */
import { writeJson, writeString, type JsonObject } from './json-text.js';
import { progressTokenOf } from './initiated.js';
import { resultText } from './jsonrpc.js';

/** One held call: its reply line and the raw text of its id. */
export interface Held {
  reply: string;
  id: string | null;
}

/** The call's `arguments.query` as given, or empty: the call's own marker. */
function queryOf(params: unknown): string {
  const args = typeof params === 'object' && params !== null ? (params as Record<string, unknown>)['arguments'] : undefined;
  const query = typeof args === 'object' && args !== null ? (args as Record<string, unknown>)['query'] : undefined;
  return typeof query === 'string' ? query : '';
}

const notification = (method: string, params: JsonObject): { line: string; method: string } => ({
  line: `{"jsonrpc":"2.0","method":${writeString(method)},"params":${writeJson(params)}}`,
  method,
});

/** The notifications a call sends on arrival: progress for its token (when it gave one) and a log line. */
export function arrivalLines(params: unknown): Array<{ line: string; method: string }> {
  const query = queryOf(params);
  const token = progressTokenOf(params);
  return [
    ...(token === undefined ? [] : [notification('notifications/progress', { progressToken: token, progress: 1, total: 2, message: `Searching the notes for ${query}.` })]),
    notification('notifications/message', { level: 'info', logger: 'notes', data: `Searching the notes for ${query}.` }),
  ];
}

/** The held answer of a call: a text result quoting its query. */
export function heldAnswer(params: unknown, id: string | null): Held {
  const result = { content: [{ type: 'text', text: `Found 3 notes for ${queryOf(params)}.` }] };
  return { reply: resultText(id, writeJson(result)), id };
}

/**
 * The calls of one tool waiting for their rendezvous. `arrive` returns the answers to send now:
 * none until the count is reached, then every held one, oldest first.
 */
export class Rendezvous {
  private readonly waiting = new Map<string, Held[]>();

  arrive(tool: string, count: number, held: Held): Held[] {
    const waiting = [...(this.waiting.get(tool) ?? []), held];
    if (waiting.length < count) {
      this.waiting.set(tool, waiting);
      return [];
    }
    this.waiting.delete(tool);
    return waiting;
  }
}
