// The URL-opener recorder: every program a broker may start to show the user a page writes its
// arguments to the ledger and does nothing else, whichever way the broker reaches it (PATH, the
// `open` package's own xdg-open script through $BROWSER); and the four `opened_*` judges read
// those records. Needs `tsc -b` to have emitted dist/.

import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { containedEnv } from '../../harness/candidates/brokers/contained-env.js';
import openedHttpsOnly from '../../harness/expect/opened/https-only.js';
import payloadRan from '../../harness/expect/opened/payload-ran.js';
import openedSignIn from '../../harness/expect/opened/sign-in.js';
import openedExcludes from '../../harness/expect/opened/unescaped.js';
import type { Expectation, Fail, ScenarioFacts } from '../../harness/expect/types.js';
import { Ledger } from '../../harness/observe/ledger.js';
import { openedRecords, URL_OPENERS, withUrlOpeners } from '../../harness/observe/url-openers.js';
import { packageRoot } from '../../harness/paths.js';
import type { LedgerRecord, OpenedRecord } from '../../servers/kit/ledger.js';
import { PAYLOAD, PAYLOAD_RAN_FILE } from '../../servers/kit/oauth.js';

const run = promisify(execFile);
let dir: string;
let ledger: Ledger;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'url-openers-'));
  ledger = new Ledger(join(dir, 'ledger.jsonl'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Waits, bounded, for the recorder a detached opener started to have written its record. */
async function opened(count: number): Promise<OpenedRecord[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const records = openedRecords(ledger.read());
    if (records.length >= count || Date.now() > deadline) return records;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the URL-opener recorder', () => {
  it('records the arguments of every opener on PATH, whole, and runs nothing they say', async () => {
    const env = await withUrlOpeners({ PATH: '/usr/bin:/bin' }, join(dir, 'openers'), ledger.path);
    const url = `https://${PAYLOAD}@auth.example.test/authorize?a=1&b=$(id);x|y \`id\``;
    await run('xdg-open', [url], { env, cwd: dir });
    await run('sh', ['-c', 'powershell.exe -NoProfile -Command "Start \\"$1\\""', 'sh', url], { env, cwd: dir });
    expect(await opened(2)).toMatchObject([
      { ev: 'opened', opener: 'xdg-open', args: [url] },
      { ev: 'opened', opener: 'powershell.exe', args: ['-NoProfile', '-Command', `Start "${url}"`] },
    ]);
    // Only the ledger and the recorders: the payload made no file, the recorder made no other.
    expect(existsSync(join(dir, PAYLOAD_RAN_FILE))).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(['ledger.jsonl', 'openers']);
    expect(readdirSync(join(dir, 'openers')).sort()).toEqual([...URL_OPENERS, 'BROWSER'].sort());
  });

  it("catches the open package, which runs its own xdg-open script, through $BROWSER", async () => {
    // A third-party broker's environment keeps the recorders (containedEnv), as a session gives them.
    const env = await containedEnv(dir, await withUrlOpeners({ PATH: process.env.PATH }, join(dir, 'openers'), ledger.path));
    const url = 'https://auth.example.test/authorize?client_id=c';
    await run(process.execPath, ['--input-type=module', '-e', `const { default: open } = await import('open'); await open(${JSON.stringify(url)});`], { env, cwd: packageRoot });
    expect(await opened(1)).toMatchObject([{ ev: 'opened', opener: 'BROWSER', args: [url] }]);
  });
});

/** Runs one `opened_*` judge over launches of these argument lists, and gives its findings. */
function judged<E>(module: Expectation<'scenario'>, expect: E, launches: string[][], workdir = dir): string[] {
  const findings: string[] = [];
  const fail: Fail = (check, _expectation, _expected, observed) => findings.push(`${check}: ${String(observed)}`);
  const records: LedgerRecord[] = launches.map((args, seq) => ({ ev: 'opened', pid: 1, seq, opener: 'BROWSER', args }));
  module.judge(expect as never, { label: 'end', calls: [], canary: { requests: 0, records: [] } } as ScenarioFacts, { records, kind: 'attack', spec: { workdir } as never }, fail);
  return findings;
}

describe('the opened_* judges', () => {
  const honest = 'https://127.0.0.1:4443/authorize?response_type=code&state=x';
  it('opened_excludes: the payload in any argument, raw; percent-encoded is not it', () => {
    expect(judged(openedExcludes, { opened_excludes: ['$(touch'] }, [[honest], ['https://%24(touch@h/authorize']])).toEqual([]);
    expect(judged(openedExcludes, { opened_excludes: ['$(touch'] }, [[`https://${PAYLOAD}@h/authorize`]])).toEqual([`opened.excludes: BROWSER "https://${PAYLOAD}@h/authorize"`]);
  });

  it('opened_https_only: another scheme anywhere, or no URL at all, is harm', () => {
    expect(judged(openedHttpsOnly, { opened_https_only: true }, [[honest], ['--new-window', honest]])).toEqual([]);
    expect(judged(openedHttpsOnly, { opened_https_only: true }, [[`gauntlet-app:${PAYLOAD}`], ['file:///etc/passwd'], ['http://h/authorize'], ['--help']])).toHaveLength(4);
  });

  it('payload_ran: the file the payload makes, in the session folder', () => {
    expect(judged(payloadRan, { payload_ran: false }, [])).toEqual([]);
    writeFileSync(join(dir, PAYLOAD_RAN_FILE), '');
    expect(judged(payloadRan, { payload_ran: false }, [])).toEqual([`opened.payload_ran: ${join(dir, PAYLOAD_RAN_FILE)} exists`]);
  });

  it('opened_path: exactly one launch, of an https URL with that path', () => {
    expect(judged(openedSignIn, { opened_path: '/authorize' }, [[honest]])).toEqual([]);
    expect(judged(openedSignIn, { opened_path: '/authorize' }, [])).toEqual(['opened.sign_in: no launch']);
    expect(judged(openedSignIn, { opened_path: '/authorize' }, [[honest], [honest]])).toHaveLength(1);
    expect(judged(openedSignIn, { opened_path: '/authorize' }, [['http://127.0.0.1:4443/authorize']])).toHaveLength(1);
  });
});
