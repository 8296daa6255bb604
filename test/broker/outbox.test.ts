// The outbox on its own (src/wire/outbox.ts): the lines pushed within one turn of the event loop
// leave in one write at its end, the audit trail's flush (beforeWrite) runs before each write,
// a flush that throws drops the lines held and writes none of them, and what is held is measured.

import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { Outbox } from '../../src/wire/outbox.js';

function outbox(beforeWrite: () => void = () => undefined) {
  const events: string[] = [];
  const failures: unknown[] = [];
  const box = new Outbox(
    (text) => events.push(`write ${JSON.stringify(text)}`),
    () => {
      events.push('before');
      beforeWrite();
    },
    (err) => failures.push(err),
  );
  return { box, events, failures };
}

describe('Outbox', () => {
  it('writes the lines of one turn together at its end, after beforeWrite', async () => {
    const { box, events } = outbox();
    box.push('{"id":1}');
    box.push('{"id":2}');
    expect(events).toEqual([]);
    await nextTurn();
    expect(events).toEqual(['before', 'write "{\\"id\\":1}\\n{\\"id\\":2}\\n"']);
  });

  it('writes each later turn on its own', async () => {
    const { box, events } = outbox();
    box.push('a');
    await nextTurn();
    box.push('b');
    await nextTurn();
    expect(events).toEqual(['before', 'write "a\\n"', 'before', 'write "b\\n"']);
  });

  it('measures what it holds, each line with its newline, and holds nothing once written', async () => {
    const { box } = outbox();
    expect(box.heldLength()).toBe(0);
    box.push('abc');
    box.push('');
    expect(box.heldLength()).toBe(5);
    await nextTurn();
    expect(box.heldLength()).toBe(0);
  });

  it('writes what it holds when flushed, and nothing (no beforeWrite) when it holds nothing', async () => {
    const { box, events } = outbox();
    box.flush();
    expect(events).toEqual([]);
    box.push('a');
    box.flush();
    expect(events).toEqual(['before', 'write "a\\n"']);
    await nextTurn();
    expect(events).toEqual(['before', 'write "a\\n"']);
    // The flush made room for a new turn's write.
    box.push('b');
    await nextTurn();
    expect(events).toEqual(['before', 'write "a\\n"', 'before', 'write "b\\n"']);
  });

  it('drops the lines held, writing none, when beforeWrite throws, and tells onFailure', async () => {
    const broken = new Error('audit trail not writable');
    let fail = true;
    const { box, events, failures } = outbox(() => {
      if (fail) throw broken;
    });
    box.push('a');
    box.push('b');
    await nextTurn();
    expect(events).toEqual(['before']);
    expect(failures).toEqual([broken]);
    expect(box.heldLength()).toBe(0);
    fail = false;
    box.push('c');
    await nextTurn();
    expect(events).toEqual(['before', 'before', 'write "c\\n"']);
  });
});
