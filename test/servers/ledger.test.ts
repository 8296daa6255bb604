import { appendFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cutRaw, Ledger, RAW_LIMIT, readLedger } from '../../servers/kit/ledger.js';

describe('Ledger', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kit-ledger-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('appends records with ev first, this pid and a per-ledger seq from 0', () => {
    const path = join(dir, 'ledger.jsonl');
    const ledger = new Ledger(path);
    ledger.append({ ev: 'sent', bytes: 2, sha256: 'ab', raw: '{}', raw_truncated: false, in_reply_to: '1', method: null });
    ledger.append({ ev: 'spawn', child: 42 });
    ledger.append({ ev: 'exit', reason: 'stdin-closed' });
    expect(readLedger(path)).toEqual([
      { ev: 'sent', pid: process.pid, seq: 0, bytes: 2, sha256: 'ab', raw: '{}', raw_truncated: false, in_reply_to: '1', method: null },
      { ev: 'spawn', pid: process.pid, seq: 1, child: 42 },
      { ev: 'exit', pid: process.pid, seq: 2, reason: 'stdin-closed' },
    ]);
    expect(Object.keys(readLedger(path)[0]!).slice(0, 3)).toEqual(['ev', 'pid', 'seq']);
  });

  it('leaves a record still being appended for the next read', () => {
    const path = join(dir, 'ledger.jsonl');
    const ledger = new Ledger(path);
    ledger.append({ ev: 'spawn', child: 42 });
    appendFileSync(path, '{"ev":"exit","pid":1,"se');
    expect(readLedger(path)).toEqual([{ ev: 'spawn', pid: process.pid, seq: 0, child: 42 }]);
  });

  it('records nothing without a path, and an unwritten ledger reads as empty', () => {
    new Ledger(null).append({ ev: 'exit', reason: 'SIGTERM' });
    expect(readLedger(join(dir, 'never.jsonl'))).toEqual([]);
    expect(existsSync(join(dir, 'never.jsonl'))).toBe(false);
  });
});

describe('cutRaw', () => {
  it('keeps a line of exactly the limit whole', () => {
    const text = 'x'.repeat(RAW_LIMIT);
    expect(cutRaw(text, true)).toEqual({ raw: text, raw_truncated: false });
  });

  it('cuts a longer line to the limit', () => {
    const { raw, raw_truncated } = cutRaw('y'.repeat(RAW_LIMIT + 1), true);
    expect(raw).toHaveLength(RAW_LIMIT);
    expect(raw_truncated).toBe(true);
  });

  it('marks the head of an overlong line as truncated even when short', () => {
    expect(cutRaw('head', false)).toEqual({ raw: 'head', raw_truncated: true });
  });
});
