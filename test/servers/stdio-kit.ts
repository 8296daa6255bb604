import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, expect } from 'vitest';
import { serverEntry } from '../../harness/paths.js';
import { type LedgerRecord, readLedger } from '../../servers/kit/ledger.js';
import { scratchFolders } from '../harness/scratch.js';

/** A line the kit wrote, decoded. */
export type Message = Record<string, any>;

/**
 * The compiled `notes` kit server run over stdio, a fresh ledger for each test: `serve` writes every
 * line at once, lets the server read to the end, and returns what it wrote, decoded.
 */
export function stdioKit(prefix: string) {
  const scratch = scratchFolders(prefix);
  let ledgerPath = '';
  beforeEach(() => {
    ledgerPath = join(scratch(), 'ledger.jsonl');
  });
  return {
    serve(knobs: readonly string[], lines: readonly unknown[]): Message[] {
      const input = lines.map((line) => `${JSON.stringify(line)}\n`).join('');
      const run = spawnSync(process.execPath, [serverEntry, 'notes', '--ledger', ledgerPath, ...knobs], { input, timeout: 20_000 });
      expect(run.status).toBe(0);
      return run.stdout.toString('utf8').split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Message);
    },
    records: (): LedgerRecord[] => readLedger(ledgerPath),
    forgetLedger: (): void => rmSync(ledgerPath, { force: true }),
  };
}
