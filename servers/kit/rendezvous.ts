/**
 * `rendezvous.<tool>=N`: calls of a tool held together, as a slow tool serving several clients at
 * once holds them. On arrival each call gets a progress notification for its own token and a log
 * line, both quoting the call's `query`; its answer, quoting the query too, waits until N calls
 * have arrived (a count, never a time, counted across every kit server of the scenario), and then
 * every held answer goes out in arrival order. So
 * each client's result, progress and log line carries its own marker, and a broker sharing the
 * server among its clients is seen if it hands one client's to another.
 */
import { appendFileSync, readFileSync, watch, type FSWatcher } from 'node:fs';
import { writeJson, writeString, type JsonObject } from './json-text.js';
import { type OwnLine, progressTokenOf } from './initiated.js';
import { resultText } from './jsonrpc.js';
import { statelessForm } from './result-form.js';

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

const notification = (method: string, params: JsonObject): OwnLine => ({
  line: `{"jsonrpc":"2.0","method":${writeString(method)},"params":${writeJson(params)}}`,
  method,
  id: null,
  level: method === 'notifications/message' ? 'info' : null,
});

/** The notifications a call sends on arrival: progress for its token (when it gave one) and a log line. */
export function arrivalLines(params: unknown): OwnLine[] {
  const query = queryOf(params);
  const token = progressTokenOf(params);
  return [
    ...(token === undefined ? [] : [notification('notifications/progress', { progressToken: token, progress: 1, total: 2, message: `Searching the notes for ${query}.` })]),
    notification('notifications/message', { level: 'info', logger: 'notes', data: `Searching the notes for ${query}.` }),
  ];
}

/** The held answer of a call: a text result quoting its query. */
export function heldAnswer(params: unknown, id: string | null, stateless: boolean): Held {
  const result = writeJson({ content: [{ type: 'text', text: `Found 3 notes for ${queryOf(params)}.` }] });
  return { reply: resultText(id, stateless ? statelessForm(result, 'tools/call') : result), id };
}

/** One held call and its place among the arrivals of its tool: the arrivals counted once it came. */
interface Waiting {
  held: Held;
  arrival: number;
}

/**
 * The calls of one tool waiting for their rendezvous: each call's answer goes out once the
 * arrivals of its tool have filled its group of `count` (the first `count` arrivals, then the next
 * `count`, ...), oldest first. Arrivals are counted in a file beside the scenario's control file,
 * one line a call, where every kit server of the scenario counts its own: a broker that starts a
 * server for each session (or each request) holds the calls in several processes, which meet all
 * the same. A server watches the file while it holds calls; without a control file (run by hand)
 * it counts its own arrivals alone.
 */
export class Rendezvous {
  private readonly waiting = new Map<string, Waiting[]>();
  private readonly counts = new Map<string, number>();
  private readonly ownArrivals = new Map<string, number>();
  private watcher: FSWatcher | undefined;

  constructor(
    private readonly file: string | null,
    private readonly release: (held: Held) => void,
  ) {}

  /** A call of `tool` arrives: it is counted and held, and every call whose group is full goes out. */
  arrive(tool: string, count: number, held: Held): void {
    this.counts.set(tool, count);
    if (this.file !== null) appendFileSync(this.file, `${tool}\n`);
    else this.ownArrivals.set(tool, (this.ownArrivals.get(tool) ?? 0) + 1);
    this.waiting.set(tool, [...(this.waiting.get(tool) ?? []), { held, arrival: this.arrivals(tool) }]);
    this.releaseMet();
    if (this.file !== null && this.waiting.size > 0) this.watcher ??= watch(this.file, { persistent: false }, () => this.releaseMet());
  }

  /** How many calls of `tool` have arrived, at every server of the scenario. */
  private arrivals(tool: string): number {
    if (this.file === null) return this.ownArrivals.get(tool) ?? 0;
    return readFileSync(this.file, 'utf8').split('\n').filter((line) => line === tool).length;
  }

  private releaseMet(): void {
    for (const [tool, calls] of this.waiting) {
      const count = this.counts.get(tool)!;
      const filled = Math.floor(this.arrivals(tool) / count) * count;
      const met = calls.filter((call) => call.arrival <= filled);
      if (met.length === 0) continue;
      const left = calls.filter((call) => call.arrival > filled);
      if (left.length === 0) this.waiting.delete(tool);
      else this.waiting.set(tool, left);
      for (const call of met) this.release(call.held);
    }
    if (this.waiting.size === 0) {
      this.watcher?.close();
      this.watcher = undefined;
    }
  }
}
