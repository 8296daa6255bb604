import { describe, expect, it } from 'vitest';
import type { SessionSpec } from '../../harness/candidates/types.js';
import type { ListFacts } from '../../harness/expect/types.js';
import { judge } from '../../harness/run/judge.js';
import type { StepRecord } from '../../harness/run/steps.js';
import type { ListExpectation } from '../../harness/scenario/types.js';
import type { LedgerRecord } from '../../servers/kit/ledger.js';

// list.members over synthetic facts: a member must reach the agent as given, and `{port}` in a
// string stands for the port the ledger says the HTTP server listens on.

const recv: LedgerRecord = { ev: 'recv', pid: 5, seq: 0, bytes: 0, sha256: '', raw: '{}', raw_truncated: false, method: 'tools/list', id: '1', tool: null, phase: 'review' };
const listening = (port: number): LedgerRecord => ({ ev: 'listening', pid: 5, port }) as LedgerRecord;

function checks(expect: ListExpectation, tool: Record<string, unknown>, records: LedgerRecord[] = [recv]): string[] {
  const byName = new Map([[String(tool['name']), tool]]);
  const facts: ListFacts = { label: '3:list', mark: 0, end: records.length, tools: [tool], byName, first: byName, sessionMark: 0 };
  const steps: StepRecord[] = [{ block: 'list', expect, facts } as StepRecord];
  return judge(steps, { records, kind: 'control', spec: {} as SessionSpec }, new Set()).findings.map((finding) => `${finding.check}:${finding.class}`);
}

describe('list.members', () => {
  const icon = (src: string) => ({ name: 'search_notes', icons: [{ src, mimeType: 'image/png' }] });
  const expectation: ListExpectation = { members: { search_notes: { icons: [{ src: 'https://127.0.0.1:{port}/icons/search_notes.png', mimeType: 'image/png' }] } } };

  it("reads {port} as the HTTP server's port from the ledger", () => {
    expect(checks(expectation, icon('https://127.0.0.1:4321/icons/search_notes.png'), [listening(4321), recv])).toEqual([]);
    expect(checks(expectation, icon('https://127.0.0.1:4322/icons/search_notes.png'), [listening(4321), recv])).toEqual(['list.members:benign']);
  });

  it('leaves {port} as written where no server listens (stdio), and fails a member dropped or changed', () => {
    expect(checks(expectation, icon('https://127.0.0.1:{port}/icons/search_notes.png'))).toEqual([]);
    expect(checks(expectation, { name: 'search_notes' })).toEqual(['list.members:benign']);
  });
});
