// How the broker reads a server's `input_required` result (src/session/input-required.ts): a
// flood of input requests is read up to the bound and the rest refused unread, never the call.
import { describe, expect, it } from 'vitest';
import { InputHandles, MAX_INPUT_REQUESTS, readInputRequired, RelayedStates, type Shown } from '../../src/session/input-required.js';
import type { PerRequest } from '../../src/session/answer.js';
import { NO_CAPABILITIES } from '../../src/operator/client-capabilities.js';
import { readJson } from '../../src/json/reader.js';

const sampling = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`input-${i + 1}`, { method: 'sampling/createMessage', params: { messages: [], maxTokens: 10 } }]));

describe('an input_required result, read', () => {
  it('reads the first MAX_INPUT_REQUESTS input requests, in the server\'s order, and counts the rest as unread', () => {
    const read = readInputRequired(readJson(JSON.stringify({ resultType: 'input_required', inputRequests: sampling(MAX_INPUT_REQUESTS + 4), requestState: 's' })));
    expect(typeof read).toBe('object');
    if (typeof read === 'string') return;
    expect(read.requests.map((r) => r.key)).toEqual(Array.from({ length: MAX_INPUT_REQUESTS }, (_, i) => `input-${i + 1}`));
    expect(read.unread).toBe(4);
    expect(read.requestState).toBe('s');
  });

  it('leaves nothing unread within the bound', () => {
    const read = readInputRequired(readJson(JSON.stringify({ inputRequests: sampling(3) })));
    expect(read).toMatchObject({ unread: 0, requestState: undefined });
  });

  it('refuses a result with neither input requests nor state, or a request without a method', () => {
    expect(readInputRequired(readJson('{"resultType":"input_required"}'))).toBe('it carries neither inputRequests nor requestState');
    expect(readInputRequired(readJson('{"inputRequests":{"a":{"params":{}}}}'))).toMatch(/names no method/);
  });
});

// The guard request-state-bound's mechanics (InputHandles) beside what the session does without
// it (RelayedStates): a handle bound to its call and spent once, against the server's own state
// relayed and any state forwarded.
describe('multi round-trip states, bound and relayed', () => {
  const perRequest: PerRequest = { client: NO_CAPABILITIES, logLevel: undefined };
  const shown = new Map<string, Shown>();
  const retry = (state: string) => readJson(JSON.stringify({ name: 'delete_note', inputResponses: {}, requestState: state }));

  it('bound: shows a handle of its own, redeems it once for the call it was issued for, and refuses the rest', () => {
    const handles = new InputHandles();
    const handle = handles.issue('call A', 'server-state', shown, 1);
    expect(handle).not.toBe('server-state');
    expect(handles.redeem(retry('server-state'), perRequest, 'call A')).toMatchObject({ kind: 'refused' });
    expect(handles.redeem(retry(handle), perRequest, 'call B')).toMatchObject({ kind: 'refused', problem: 'requestState was issued for another request' });
    expect(handles.redeem(retry(handle), perRequest, 'call A')).toMatchObject({ kind: 'retry', serverState: 'server-state', round: 1 });
    expect(handles.redeem(retry(handle), perRequest, 'call A')).toMatchObject({ kind: 'refused' });
  });

  it('relayed: shows the server its own state, and forwards any state, for any call, as often as sent', () => {
    const relayed = new RelayedStates();
    expect(relayed.issue('call A', 'server-state', shown, 1)).toBe('server-state');
    expect(relayed.redeem(retry('server-state'), perRequest)).toMatchObject({ kind: 'retry', serverState: 'server-state', round: 1 });
    expect(relayed.redeem(retry('server-state'), perRequest)).toMatchObject({ kind: 'retry', serverState: 'server-state' });
    expect(relayed.redeem(retry('forged'), perRequest)).toMatchObject({ kind: 'retry', serverState: 'forged', round: 0 });
    expect(relayed.redeem(readJson('{"name":"delete_note"}'), perRequest)).toEqual({ kind: 'fresh' });
  });
});
