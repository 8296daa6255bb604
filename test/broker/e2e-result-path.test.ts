// The hard bound on a server's answer, end to end: a line past max_message_bytes is dropped as it
// arrives, the call gets result_too_large, the session goes on, and the broker's peak resident
// memory does not grow by the size of the line.

import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { Workdir, toolsText } from './e2e-helpers.js';

let work: Workdir;
afterEach(async () => {
  await work.cleanup();
});

const peakKiB = (pid: number): number => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
const LINE = 64 * 1024 * 1024;

describe('result-size-bound, end to end', () => {
  it('answers a 64 MiB line with result_too_large, keeps serving, and never holds it', async () => {
    work = new Workdir();
    work.spec({ pages: [toolsText([{ name: 'big' }, { name: 'small' }])], bigText: LINE });
    work.writeConfig({ big: { effect: 'read_only' }, small: { effect: 'read_only' } });
    expect((await work.pin()).code).toBe(0);
    const broker = work.serve();
    await broker.initialize();
    const pid = broker.child.pid ?? 0;
    const before = peakKiB(pid);
    const answer = JSON.parse(await broker.call(1, 'big'));
    expect(answer.result.structuredContent).toMatchObject({ code: 'result_too_large', already_ran: true, retry: false });
    const growth = (peakKiB(pid) - before) * 1024;
    expect(growth).toBeLessThan(LINE);
    expect(JSON.parse(await broker.call(2, 'small')).result.content[0].text).toBe('called small');
  });
});
