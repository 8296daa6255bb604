import type { LedgerRecord } from '../../servers/kit/ledger.js';
import type { AgentChannel } from '../candidates/types.js';
import { optionalMembers } from '../candidates/wrapped-channel.js';

/**
 * One line of a case's transcript. `step` is the number of the scenario step that was running
 * when it crossed (1-based, as in a finding's `step` label "3:call"). On the agent side `from` is
 * `agent` or `broker`; on the server side it is `broker` for what a server received and `server`
 * for what it sent or did (`ev` names the ledger event). `cut_from` marks a line cut short: the
 * length of the whole, in UTF-16 units.
 */
export interface TranscriptLine {
  step: number;
  from: 'agent' | 'broker' | 'server';
  ev?: string;
  pid?: number;
  text: string;
  cut_from?: number;
}

/** Where lines were left out to keep the report bounded: how many. */
export interface TranscriptGap {
  dropped: number;
}

export type TranscriptEntry = TranscriptLine | TranscriptGap;

/**
 * The two sides of a case as the harness recorded them: every line its agent sent and received
 * (agent to broker), and the hostile servers' ledger (broker to server). Both bounded
 * (TRANSCRIPT_BOUNDS); nothing is left out without a cut or a gap saying so.
 */
export interface Transcript {
  /** The scenario's step labels, in order: step n is `steps[n - 1]`. */
  steps: string[];
  agent: TranscriptEntry[];
  server: TranscriptEntry[];
  /** The bounds this transcript was cut to. */
  bounds: TranscriptBound;
}

export interface TranscriptBound {
  /** Longest text kept of one line. */
  line_chars: number;
  /** Most text kept of one side; past it the middle of the side is dropped, head and tail kept. */
  side_chars: number;
}

/**
 * A case that failed or errored is the one someone reads, so it keeps more. With these a full
 * run of passthrough (every attack failing) stays under about 3 MB of report.json.
 */
export const TRANSCRIPT_BOUNDS: Record<'failing' | 'passing', TranscriptBound> = {
  failing: { line_chars: 1_500, side_chars: 4_500 },
  passing: { line_chars: 240, side_chars: 900 },
};

/** What a line costs besides its text in pretty-printed report.json: keys, step, indentation. */
const LINE_OVERHEAD = 80;

/** While recording, each side keeps this many lines from its start and from its end, at most. */
const RECORDED_LINES = 400;
/** While recording, a line is cut to this: past any bound a report applies. */
const RECORDED_LINE_CHARS = 4_096;

const cut = (line: TranscriptLine, chars: number): TranscriptLine => {
  const whole = line.cut_from ?? line.text.length;
  return line.text.length <= chars ? line : { ...line, text: line.text.slice(0, chars), cut_from: whole };
};

/**
 * One side as recorded: its first lines, the count dropped after them, and its last lines. Only
 * a flood reaches the drop, and then the bound a report applies leaves out that middle anyway.
 */
class Side {
  readonly head: TranscriptLine[] = [];
  readonly tail: TranscriptLine[] = [];
  dropped = 0;

  push(line: TranscriptLine): void {
    const kept = cut(line, RECORDED_LINE_CHARS);
    if (this.head.length < RECORDED_LINES) {
      this.head.push(kept);
      return;
    }
    this.tail.push(kept);
    if (this.tail.length > RECORDED_LINES) {
      this.tail.shift();
      this.dropped++;
    }
  }
}

/**
 * One side cut to a bound: each line to `line_chars`; then, past `side_chars`, lines taken from
 * the start and the end alternately while they fit, and one gap where the rest was.
 */
export function boundSide(head: readonly TranscriptLine[], tail: readonly TranscriptLine[], dropped: number, bound: TranscriptBound): TranscriptEntry[] {
  const lines = [...head, ...tail].map((line) => cut(line, bound.line_chars));
  const cost = (line: TranscriptLine) => line.text.length + LINE_OVERHEAD;
  const total = lines.reduce((sum, line) => sum + cost(line), 0);
  if (dropped === 0 && total <= bound.side_chars) return lines;
  // Taking from the front only up to the recorded head, and from the back only down to the
  // recorded tail, keeps the recording's own gap inside the one reported.
  const frontLimit = dropped === 0 ? lines.length : head.length;
  const backLimit = dropped === 0 ? 0 : head.length;
  let front = 0;
  let back = lines.length;
  let spent = 0;
  for (let fromFront = true; ; fromFront = !fromFront) {
    const canFront = front < back && front < frontLimit && spent + cost(lines[front]!) <= bound.side_chars;
    const canBack = back > front && back > backLimit && spent + cost(lines[back - 1]!) <= bound.side_chars;
    if (!canFront && !canBack) break;
    if ((fromFront && canFront) || !canBack) spent += cost(lines[front++]!);
    else spent += cost(lines[--back]!);
  }
  const left = back - front + dropped;
  return left === 0 ? lines : [...lines.slice(0, front), { dropped: left }, ...lines.slice(back)];
}

/** What a ledger record says, as one line: a message as sent, any other event as its fields. */
function ledgerLine(record: LedgerRecord, step: number): TranscriptLine {
  const base = { step, ev: record.ev, pid: record.pid };
  if (record.ev === 'recv' || record.ev === 'sent') {
    const line = { ...base, from: record.ev === 'recv' ? ('broker' as const) : ('server' as const), text: record.raw };
    return record.raw_truncated ? { ...line, cut_from: Math.max(record.bytes, record.raw.length) } : line;
  }
  if (record.ev === 'launch') {
    // The environment's names only: its values are the machine's, and a report is published.
    const { server, argv, knobs, ppid, pgid } = record;
    return { ...base, from: 'server', text: JSON.stringify({ server, argv, knobs, ppid, pgid, env: Object.keys(record.env).sort() }) };
  }
  const { ev: _ev, pid: _pid, seq: _seq, ...fields } = record;
  return { ...base, from: 'server', text: JSON.stringify(fields) };
}

/**
 * Records a case's transcript while its steps run: the agent's side by tapping each channel the
 * candidate hands back, the server's side by noting where in the ledger each step began.
 */
export class TranscriptRecorder {
  private readonly steps: string[] = [];
  /** The ledger position at which each step began. */
  private readonly marks: number[] = [];
  private readonly agent = new Side();

  /** Step `label` begins, with the ledger at `mark`. */
  enter(label: string, mark: number): void {
    this.steps.push(label);
    this.marks.push(mark);
  }

  /** The channel, with every line sent and received on it recorded in order. */
  tap(channel: AgentChannel): AgentChannel {
    const handlers: Array<(line: string) => void> = [];
    channel.onLine((line) => {
      this.agent.push({ step: this.steps.length, from: 'broker', text: line });
      for (const handler of handlers) handler(line);
    });
    return {
      send: (line) => {
        this.agent.push({ step: this.steps.length, from: 'agent', text: line });
        channel.send(line);
      },
      onLine: (handler) => handlers.push(handler),
      exited: channel.exited,
      // Read through, not copied: a channel may learn its process only later.
      get pid() {
        return channel.pid;
      },
      close: () => channel.close(),
      ...optionalMembers(channel),
    };
  }

  /**
   * The transcript of the case, with the ledger as read for judging, bounded as `kept` says: a
   * failing case keeps more, since it is the one somebody will read.
   */
  finish(records: readonly LedgerRecord[], kept: keyof typeof TRANSCRIPT_BOUNDS): Transcript {
    const bound = TRANSCRIPT_BOUNDS[kept];
    const server = new Side();
    let step = 0;
    for (const [index, record] of records.entries()) {
      while (step < this.marks.length && (this.marks[step] ?? 0) <= index) step++;
      server.push(ledgerLine(record, Math.max(step, 1)));
    }
    return {
      steps: [...this.steps],
      agent: boundSide(this.agent.head, this.agent.tail, this.agent.dropped, bound),
      server: boundSide(server.head, server.tail, server.dropped, bound),
      bounds: bound,
    };
  }
}

/** The transcript of a case that never ran. */
export const noTranscript = (): Transcript => ({ steps: [], agent: [], server: [], bounds: TRANSCRIPT_BOUNDS.passing });
