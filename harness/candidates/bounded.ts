import { killGroup } from './child.js';
import type { AgentChannel, Candidate, SessionSpec } from './types.js';
import { optionalMembers } from './wrapped-channel.js';

/** An adapter operation that did not settle within its bound. */
export class AdapterTimeout extends Error {
  constructor(
    readonly method: string,
    readonly ms: number,
  ) {
    super(`the adapter's ${method}() did not settle within ${ms} ms`);
    this.name = 'AdapterTimeout';
  }
}

/**
 * Settles as `work` does, or rejects with AdapterTimeout after `ms`. The timer is not unref'd:
 * it is what ends the wait, so it must keep the harness alive until it fires. Once the bound has
 * passed, `late` receives whatever `work` goes on to produce, and a late rejection is dropped.
 */
function within<R>(method: string, ms: number, work: Promise<R>, late: (value: R) => void = () => {}): Promise<R> {
  return new Promise<R>((resolve, reject) => {
    let expired = false;
    const timer = setTimeout(() => {
      expired = true;
      reject(new AdapterTimeout(method, ms));
    }, ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        if (expired) late(value);
        else resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        if (!expired) reject(error);
      },
    );
  });
}

/** Calls an adapter method so that a synchronous throw becomes a rejection like any other. */
async function called<R>(call: () => Promise<R>): Promise<R> {
  return call();
}

/**
 * The channel with a close() that always settles within `ms`: one that does not has its process
 * group killed, when its pid is known, and then counts as closed. Safe to call twice.
 */
function boundedChannel(channel: AgentChannel, ms: number): AgentChannel {
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= within('close', ms, called(() => channel.close())).catch(() => {
      if (channel.pid !== undefined) killGroup(channel.pid);
    });
    return closing;
  };
  return {
    send: (line) => channel.send(line),
    onLine: (handler) => channel.onLine(handler),
    get exited() {
      return channel.exited;
    },
    get pid() {
      return channel.pid;
    },
    close,
    ...optionalMembers(channel),
  };
}

/**
 * The candidate with every adapter call bounded in time: one not settled within the session's
 * `timeoutMs` plus `marginMs` rejects with AdapterTimeout, so a hung adapter cannot hang the run.
 * A channel that start() hands over after its bound is closed at once, so nothing it started is
 * left running; every channel's close() is bounded too.
 */
export function boundedCandidate(candidate: Candidate, marginMs = 5_000): Candidate {
  const bound = (spec: SessionSpec) => spec.timeoutMs + marginMs;
  // Called on the candidate itself: an adapter's methods may use `this`.
  const bounded =
    <A extends unknown[], R>(method: string, call: (spec: SessionSpec, ...rest: A) => Promise<R>) =>
    (spec: SessionSpec, ...rest: A): Promise<R> =>
      within(method, bound(spec), called(() => call.call(candidate, spec, ...rest)));
  return {
    info: candidate.info,
    pin: bounded('pin', candidate.pin),
    start: async (spec) => {
      const ms = bound(spec);
      const channel = await within('start', ms, called(() => candidate.start(spec)), (late) => void boundedChannel(late, ms).close());
      return boundedChannel(channel, ms);
    },
    ...(candidate.names && { names: candidate.names }),
    ...(candidate.loadReport && { loadReport: bounded('loadReport', candidate.loadReport) }),
    ...(candidate.startRefusal && { startRefusal: bounded('startRefusal', candidate.startRefusal) }),
    ...(candidate.approve && { approve: bounded('approve', candidate.approve) }),
    ...(candidate.audit && { audit: bounded('audit', candidate.audit) }),
    ...(candidate.auditLines && { auditLines: bounded('auditLines', candidate.auditLines) }),
    // Bounded by its own grace period (adapter-process.ts).
    ...(candidate.dispose && { dispose: () => candidate.dispose!.call(candidate) }),
  };
}
