import { describe, expect, it } from 'vitest';
import type { AgentChannel, ExitStatus } from '../../harness/candidates/types.js';
import { boundSide, TranscriptRecorder, type TranscriptEntry, type TranscriptLine } from '../../harness/run/transcript.js';

const line = (n: number, text = `line ${n}`): TranscriptLine => ({ step: 1, from: 'agent', text });
const isGap = (entry: TranscriptEntry): entry is { dropped: number } => 'dropped' in entry;

/** A channel whose far side the test plays: `reply` delivers a line as the broker sending it. */
function fakeChannel() {
  const handlers: Array<(line: string) => void> = [];
  const sent: string[] = [];
  const channel: AgentChannel = {
    send: (text) => sent.push(text),
    onLine: (handler) => handlers.push(handler),
    exited: new Promise<ExitStatus>(() => {}),
    pid: undefined,
    close: async () => {},
  };
  return { channel, sent, reply: (text: string) => handlers.forEach((handler) => handler(text)) };
}

describe('transcript bounds', () => {
  it('keeps a side that fits as it is', () => {
    const lines = [line(1), line(2)];
    expect(boundSide(lines, [], 0, { line_chars: 100, side_chars: 10_000 })).toEqual(lines);
  });

  it('cuts a long line and says how long it was', () => {
    const [cut] = boundSide([line(1, 'x'.repeat(500))], [], 0, { line_chars: 100, side_chars: 10_000 }) as TranscriptLine[];
    expect(cut).toMatchObject({ text: 'x'.repeat(100), cut_from: 500 });
  });

  it('keeps the start and the end of a long side and counts every line left out between them', () => {
    const lines = Array.from({ length: 50 }, (_, n) => line(n));
    const bounded = boundSide(lines, [], 0, { line_chars: 100, side_chars: 1_000 });
    const gaps = bounded.filter(isGap);
    expect(gaps).toHaveLength(1);
    const kept = bounded.filter((entry): entry is TranscriptLine => !isGap(entry));
    expect(kept.length + gaps[0]!.dropped).toBe(50);
    expect(bounded[0]).toEqual(lines[0]);
    expect(bounded.at(-1)).toEqual(lines[49]);
  });

  it('reports lines the recording dropped, even when what is left fits', () => {
    const bounded = boundSide([line(1)], [line(9)], 7, { line_chars: 100, side_chars: 10_000 });
    expect(bounded).toEqual([line(1), { dropped: 7 }, line(9)]);
  });
});

describe('transcript recorder', () => {
  it('records what the agent sent and received on a channel, in order, by step', () => {
    const recorder = new TranscriptRecorder();
    const far = fakeChannel();
    recorder.enter('1:start', 0);
    const tapped = recorder.tap(far.channel);
    const received: string[] = [];
    tapped.onLine((text) => received.push(text));
    tapped.send('{"id":1}');
    far.reply('{"id":1,"result":{}}');
    recorder.enter('2:list', 0);
    tapped.send('{"id":2}');
    expect(far.sent).toEqual(['{"id":1}', '{"id":2}']);
    expect(received).toEqual(['{"id":1,"result":{}}']);
    const transcript = recorder.finish([], 'failing');
    expect(transcript.steps).toEqual(['1:start', '2:list']);
    expect(transcript.agent).toEqual([
      { step: 1, from: 'agent', text: '{"id":1}' },
      { step: 1, from: 'broker', text: '{"id":1,"result":{}}' },
      { step: 2, from: 'agent', text: '{"id":2}' },
    ]);
  });

  it("gives the server's side by step from the ledger, with a launch's environment by name only", () => {
    const recorder = new TranscriptRecorder();
    recorder.enter('1:start', 0);
    recorder.enter('2:call', 1);
    const transcript = recorder.finish(
      [
        { ev: 'launch', pid: 7, seq: 0, server: 'notes', argv: ['node'], env: { SECRET: 'value-not-for-reports' }, ppid: 1, pgid: 7, sid: 7, knobs: {} },
        { ev: 'recv', pid: 7, seq: 1, bytes: 8, sha256: '', raw: '{"id":2}', raw_truncated: false, method: 'tools/call', id: '2', tool: 'x', phase: 'run' },
      ],
      'passing',
    );
    const [launch, recv] = transcript.server as TranscriptLine[];
    expect(launch).toMatchObject({ step: 1, ev: 'launch', from: 'server' });
    expect(launch!.text).toContain('SECRET');
    expect(launch!.text).not.toContain('value-not-for-reports');
    expect(recv).toEqual({ step: 2, ev: 'recv', pid: 7, from: 'broker', text: '{"id":2}' });
  });
});
