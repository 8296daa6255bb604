// How the broker reads a server's `input_required` result (src/session/input-required.ts): a
// flood of input requests is read up to the bound and the rest refused unread, never the call.
import { describe, expect, it } from 'vitest';
import { MAX_INPUT_REQUESTS, readInputRequired } from '../../src/session/input-required.js';
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
