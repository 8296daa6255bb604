// The expectations about one of several servers, judged over ledgers written as the kit writes
// them: each server's processes launched with `--as`, all in one file.

import { describe, expect, it } from 'vitest';
import serverLedgers from '../../harness/expect/servers/ledgers.js';
import serversReceived from '../../harness/expect/servers/received.js';
import serverHeaders, { excluded } from '../../harness/expect/scenario/server-headers.js';
import type { CallFacts, Fail, Finding, Judged, ScenarioFacts } from '../../harness/expect/types.js';
import { recordsOf } from '../../harness/observe/ledger.js';
import type { LedgerRecord } from '../../servers/kit/ledger.js';

const launch = (pid: number, as?: string): LedgerRecord => ({
  ev: 'launch',
  pid,
  seq: 0,
  server: 'notes',
  argv: [],
  env: {},
  ppid: 1,
  pgid: pid,
  sid: pid,
  knobs: {},
  ...(as === undefined ? {} : { as }),
});

const call = (pid: number, tool: string, seq = 1): LedgerRecord => ({
  ev: 'recv',
  pid,
  seq,
  bytes: 0,
  sha256: '',
  raw: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: {} } }),
  raw_truncated: false,
  method: 'tools/call',
  id: '1',
  tool,
  phase: 'review',
});

const request = (pid: number, headers: Record<string, string>, method = 'POST', path = '/mcp'): LedgerRecord => ({ ev: 'request', pid, seq: 2, method, path, headers });

/** A server the operator named by URL: its endpoint is /mcp. */
const SPEC = { upstream: { id: 'notes', url: 'http://127.0.0.1:4000/mcp' } } as Judged['spec'];

/** alpha is pid 10, beta pid 20 and, after a restart, 21. */
const LAUNCHES = [launch(10, 'alpha'), launch(20, 'beta'), launch(21, 'beta')];

function judged(records: LedgerRecord[]): { judged: Judged; findings: Finding[]; fail: Fail; notes: string[] } {
  const findings: Finding[] = [];
  const notes: string[] = [];
  const fail: Fail = (check, expectation, expected, observed, step = 'step') => findings.push({ check, class: 'harm', step, expectation, expected, observed });
  return { judged: { records, kind: 'attack', spec: SPEC, note: (text) => notes.push(text) }, findings, fail, notes };
}

const callFacts = (mark: number, end: number): CallFacts => ({ label: '4:call', mark, end, calledAs: 'alpha_search_notes' }) as unknown as CallFacts;

describe('recordsOf', () => {
  it("gives a server's own records, across its restarts, and nothing of an unnamed server", () => {
    const records = [...LAUNCHES, launch(30), call(10, 'search_notes'), call(21, 'read_note'), call(30, 'x')];
    expect(recordsOf(records, 'beta').map((r) => r.pid)).toEqual([20, 21, 21]);
    expect(recordsOf(records, 'gamma')).toEqual([]);
  });
});

describe('servers_received', () => {
  it('counts the calls each named server received within the step, and nothing before it', () => {
    const records = [...LAUNCHES, call(20, 'search_notes'), call(10, 'search_notes'), call(21, 'search_notes')];
    const { judged: j, findings, fail } = judged(records);
    serversReceived.judge({ agent: 'result', servers_received: { alpha: 1, beta: 1 } }, callFacts(4, records.length), j, fail);
    expect(findings).toEqual([]);
  });

  it('reports a call that reached the wrong server as harm, and the missing call as the benign use broken', () => {
    const records = [...LAUNCHES, call(20, 'alpha_search_notes')];
    const { judged: j, findings, fail } = judged(records);
    serversReceived.judge({ agent: 'result', servers_received: { alpha: 1, beta: 0 } }, callFacts(3, records.length), j, fail);
    expect(findings.map((f) => [f.check, f.observed])).toEqual([
      ['call.servers_reached', '0 tools/call'],
      ['call.servers_received', '1 tools/call (alpha_search_notes)'],
    ]);
  });

  it('names only the harm check when every count is zero', () => {
    expect(serversReceived.checksFor!({ agent: 'refused', servers_received: { beta: 0 } })).toEqual(['call.servers_received']);
  });
});

describe('server_headers', () => {
  const end = { label: 'end', calls: [], canary: { requests: 0, records: [] } } as ScenarioFacts;

  it('reports each thing seen once, with how many of the requests showed it', () => {
    const leaked = { authorization: 'Bearer operator-token', 'x-trace': 'operator-token' };
    const records = [launch(10), request(10, leaked), request(10, {}), request(10, leaked), request(10, { authorization: 'Bearer other' })];
    const { judged: j, findings, fail } = judged(records);
    serverHeaders.judge({ server_headers: { absent: ['authorization'], values_exclude: ['operator-token'], equals: { 'x-host': 'mine' } } }, end, j, fail);
    expect(findings.map((f) => [f.check, f.observed])).toEqual([
      ['server_headers.absent', 'authorization: Bearer operator-token (2 of 4 requests)'],
      ['server_headers.values_exclude', 'in authorization, x-trace (2 of 4 requests)'],
      ['server_headers.absent', 'authorization: Bearer other (1 of 4 requests)'],
      ['server_headers.equals', '(absent) (4 of 4 MCP requests)'],
    ]);
  });

  it("judges the credential MCP requests carry over MCP requests only, and names the broker's other requests in a note", () => {
    // mcp-remote's OAuth discovery before it dials the endpoint: no token, by design.
    const token = { authorization: 'Bearer mine' };
    const discovery = [request(10, {}, 'GET', '/.well-known/oauth-protected-resource/mcp'), request(10, {}, 'GET', '/.well-known/oauth-authorization-server')];
    const records = [launch(10), ...discovery, request(10, token), request(10, token, 'GET'), request(10, token, 'POST', '/mcp?session=1')];
    const { judged: j, findings, fail, notes } = judged(records);
    serverHeaders.judge({ server_headers: { equals: token } }, end, j, fail);
    expect(findings).toEqual([]);
    expect(notes).toEqual([
      'server_headers: 2 of 5 requests were not MCP requests (not to /mcp): GET /.well-known/oauth-protected-resource/mcp, GET /.well-known/oauth-authorization-server; judged for where headers went, not for what MCP traffic carried',
    ]);
  });

  it("finds the front door's credential the adapter provided, its secret part in any header, and nothing for it when none was provided", () => {
    const records = [launch(10), request(10, { 'x-api-key': 'door-secret-81c2' }), request(10, {})];
    const { judged: j, findings, fail } = judged(records);
    const expectation = { server_headers: { values_exclude: ['agent-token', '{front_door_credential}'] } };
    serverHeaders.judge(expectation, { ...end, frontDoorCredential: 'Bearer door-secret-81c2' }, j, fail);
    expect(findings.map((f) => [f.check, f.expectation, f.observed])).toEqual([['server_headers.values_exclude', 'server never receives "door-secret-81c2"', 'in x-api-key (1 of 2 requests)']]);
    const { judged: none, findings: nothing, fail: record } = judged(records);
    serverHeaders.judge(expectation, end, none, record);
    expect(nothing).toEqual([]);
    expect(excluded(['{front_door_credential}'], 'key-in-a-header-of-its-own')).toEqual(['key-in-a-header-of-its-own']);
  });

  it('still finds a secret sent to a discovery path: where a token goes counts on every request', () => {
    const records = [launch(10), request(10, { authorization: 'Bearer operator-token' }, 'GET', '/.well-known/oauth-protected-resource'), request(10, {})];
    const { judged: j, findings, fail } = judged(records);
    serverHeaders.judge({ server_headers: { absent: ['authorization'], values_exclude: ['operator-token'] } }, end, j, fail);
    expect(findings.map((f) => [f.check, f.observed])).toEqual([
      ['server_headers.absent', 'authorization: Bearer operator-token (1 of 2 requests)'],
      ['server_headers.values_exclude', 'in authorization (1 of 2 requests)'],
    ]);
  });

  it('needs an MCP request for a credential to be carried: discovery requests alone are not one', () => {
    const { judged: j, findings, fail } = judged([launch(10), request(10, {}, 'GET', '/.well-known/oauth-protected-resource')]);
    serverHeaders.judge({ server_headers: { equals: { authorization: 'Bearer mine' } } }, end, j, fail);
    expect(findings.map((f) => [f.check, f.observed])).toEqual([['server_headers.requested', 'none of 1 requests (GET /.well-known/oauth-protected-resource)']]);
  });

  it('finds nothing when every request is as expected, and names a missing request only where one is needed', () => {
    const { judged: quiet, findings: none, fail: record } = judged([launch(10), request(10, { 'x-host': 'mine' })]);
    serverHeaders.judge({ server_headers: { absent: ['authorization'], equals: { 'x-host': 'mine' } } }, end, quiet, record);
    expect(none).toEqual([]);
    const { judged: empty, findings, fail } = judged([launch(10)]);
    serverHeaders.judge({ server_headers: { absent: ['authorization'], equals: { 'x-host': 'mine' } } }, end, empty, fail);
    expect(findings.map((f) => [f.check, f.observed])).toEqual([['server_headers.requested', 'none']]);
  });
});

describe('servers (per-server ledger and headers)', () => {
  const end = { label: 'end', calls: [], canary: { requests: 0, records: [] } } as ScenarioFacts;

  it("judges ledger counts over each server's own records only", () => {
    const records = [...LAUNCHES, call(10, 'search_notes'), call(20, 'search_notes', 2)];
    const { judged: j, findings, fail } = judged(records);
    serverLedgers.judge({ servers: { alpha: { ledger: { calls: { search_notes: 1 } } }, beta: { ledger: { calls: { search_notes: 0 } } } } }, end, j, fail);
    expect(findings.map((f) => [f.check, f.expectation, f.observed])).toEqual([['servers.ledger.calls', 'beta: server receives search_notes', 1]]);
  });

  it("judges headers over each server's own requests: a token meant for alpha that beta received", () => {
    const records = [...LAUNCHES, request(10, { authorization: 'Bearer tok-alpha-1234' }), request(20, { authorization: 'Bearer tok-alpha-1234' })];
    const { judged: j, findings, fail } = judged(records);
    serverLedgers.judge(
      { servers: { alpha: { server_headers: { equals: { authorization: 'Bearer tok-alpha-1234' } } }, beta: { server_headers: { values_exclude: ['tok-alpha-1234'] } } } },
      end,
      j,
      fail,
    );
    expect(findings.map((f) => f.check)).toEqual(['servers.server_headers.values_exclude']);
  });

  it('needs a launch of each server it names', () => {
    const { judged: j, findings, fail } = judged([launch(10, 'alpha')]);
    serverLedgers.judge({ servers: { beta: { ledger: { calls: { search_notes: 0 } } } } }, end, j, fail);
    expect(findings.map((f) => f.check)).toEqual(['servers.launched']);
  });

  it('declares every delegated check under its own prefix, with the class it has for the whole ledger', () => {
    expect(serverLedgers.checks['servers.ledger.calls']?.class).toBe('harm');
    expect(serverLedgers.checks['servers.server_headers.equals']?.class).toBe('benign');
    expect(serverLedgers.checks['servers.launched']?.class).toBe('benign');
  });
});
