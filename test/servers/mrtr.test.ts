import { describe, expect, it } from 'vitest';
import { MAX_REISSUES, RequestStates } from '../../servers/kit/mrtr.js';
import { CANARY } from '../../servers/kit/payloads.js';
import { stdioKit } from './stdio-kit.js';

// ask.<tool> in 2026-07-28 (multi round-trip requests), through the compiled server over stdio:
// the input_required answer, the retry's replies in the ledger, and what a retry that does not
// fit gets. A retry is sent to a second run of the server, as a client that reads each answer
// before it retries would meet a server started per request: the state a first run issued is
// recognised by every run of the same server id.

const kit = stdioKit('kit-mrtr');
const serve = (knobs: string[], lines: unknown[]) => kit.serve(['revisions=2026-07-28', ...knobs], lines);
const records = kit.records;

const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { sampling: {}, elicitation: {}, roots: {} } };
const call = (id: number, extra: Record<string, unknown> = {}, name = 'search_notes') => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: { query: 'x' }, _meta: meta, ...extra },
});

describe('ask.<tool> in 2026-07-28', () => {
  it('answers the call input_required, carrying the preset’s requests, and sends no request of its own', () => {
    const out = serve(['ask.search_notes=elicit-form'], [call(1)]);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({
      id: 1,
      result: {
        resultType: 'input_required',
        inputRequests: { 'input-1': { method: 'elicitation/create', params: { mode: 'form', message: 'Which folder should the note go in?' } } },
        requestState: expect.any(String),
      },
    });
    expect(records().filter((record) => record.ev === 'sent').map((record) => (record as { method: string | null }).method)).toEqual([null]);
  });

  it('carries every request of a preset under its own key, and a request without params as its method alone', () => {
    const [many] = serve(['ask.search_notes=sampling-many'], [call(1)]);
    expect(Object.keys(many!.result.inputRequests)).toEqual(Array.from({ length: 20 }, (_, i) => `input-${i + 1}`));
    const [roots] = serve(['ask.search_notes=roots'], [call(1)]);
    expect(roots!.result.inputRequests).toEqual({ 'input-1': { method: 'roots/list' } });
  });

  it('records each response of the retry as a reply, and that the state came back intact, then answers the call', () => {
    const [progress, first] = serve(['ask.search_notes=sampling-many', 'notify.search_notes=progress'], [call(1, { _meta: { ...meta, progressToken: 'p' } })]);
    expect(progress).toMatchObject({ method: 'notifications/progress', params: { progressToken: 'p' } });
    const requestState = first!.result.requestState as string;
    kit.forgetLedger();
    const responses = { 'input-1': { role: 'assistant', content: { type: 'text', text: 'one' }, model: 'm' }, 'input-2': { role: 'assistant', content: { type: 'text', text: 'two' }, model: 'm' } };
    const out = serve(['ask.search_notes=sampling-many', 'notify.search_notes=progress'], [call(2, { inputResponses: responses, requestState, _meta: { ...meta, progressToken: 'q' } })]);
    // The first round sent the progress; the retry is answered alone.
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ id: 2, result: { resultType: 'complete', content: [{ type: 'text' }] } });
    expect(records().find((record) => record.ev === 'request_state')).toMatchObject({ tool: 'search_notes', request_state: requestState, intact: true });
    const replies = records().filter((record) => record.ev === 'reply');
    expect(replies).toHaveLength(20);
    expect(replies[0]).toMatchObject({ method: 'sampling/createMessage', request_id: 'input-1', result: responses['input-1'], error: null });
    expect(replies[2]).toMatchObject({ method: 'sampling/createMessage', request_id: 'input-3', result: null, error: null });
  });

  it('answers input_required again to a retry with no inputResponses or a state it did not issue, recording the state, then refuses', () => {
    const issued = new RequestStates('notes').issue('search_notes');
    const tampered = `${issued.slice(0, -2)}AA`;
    const otherTool = new RequestStates('notes').issue('read_note');
    const retries = [
      call(2, { requestState: issued }),
      call(3, { inputResponses: {}, requestState: tampered }),
      call(4, { inputResponses: {}, requestState: otherTool }),
      call(5, { inputResponses: {} }),
    ];
    const out = serve(['ask.search_notes=roots'], retries);
    expect(out.slice(0, MAX_REISSUES).map((answer) => answer.result.resultType)).toEqual(Array(MAX_REISSUES).fill('input_required'));
    expect(out[MAX_REISSUES]).toMatchObject({ id: 5, error: { code: -32602 } });
    expect(records().filter((record) => record.ev === 'request_state')).toMatchObject([
      { request_state: issued, intact: true },
      { request_state: tampered, intact: false },
      { request_state: otherTool, intact: false },
      { request_state: null, intact: false },
    ]);
    expect(records().filter((record) => record.ev === 'reply')).toEqual([]);
  });

  it('issues a state another process of the same server accepts, and one of another server does not', () => {
    const state = new RequestStates('notes').issue('search_notes');
    expect(new RequestStates('notes').intact('search_notes', null, state)).toBe(true);
    expect(new RequestStates('other').intact('search_notes', null, state)).toBe(false);
    expect(new RequestStates('notes').intact('search_notes', null, `${state}.x`)).toBe(false);
    expect(new RequestStates('notes').intact('search_notes', null, null)).toBe(false);
  });

  it('leaves 2025-11-25 calls of the same server as they were: a request of its own, then the answer', () => {
    const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } };
    const legacyCall = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_notes', arguments: {} } };
    const reply = { jsonrpc: '2.0', id: 'srv-1', result: { roots: [] } };
    const out = serve(['revisions=2025-11-25,2026-07-28', 'ask.search_notes=roots'], [init, legacyCall, reply]);
    expect(out.map((message) => message.method ?? `answer ${String(message.id)}`)).toEqual(['answer 0', 'roots/list', 'answer 1']);
  });

  describe('request_state=naive', () => {
    const naive = (lines: unknown[]) => serve(['ask.search_notes=elicit-form', 'request_state=naive'], lines);
    const stateOf = (fields: Record<string, unknown>) => Buffer.from(JSON.stringify(fields)).toString('base64');
    const accepted = { 'input-1': { action: 'accept', content: { folder: 'Inbox' } } };

    it('issues base64 JSON naming the tool, the arguments and confirmed: false, and answers the honest retry as the sealed state does', () => {
      const [first] = naive([call(1)]);
      const requestState = first!.result.requestState as string;
      expect(JSON.parse(Buffer.from(requestState, 'base64').toString('utf8'))).toEqual({ tool: 'search_notes', arguments: { query: 'x' }, confirmed: false, call: 1 });
      kit.forgetLedger();
      const [answer] = naive([call(2, { inputResponses: accepted, requestState })]);
      expect(JSON.stringify(answer!.result)).not.toContain(CANARY);
      expect(records().filter((record) => record.ev === 'request_state')).toMatchObject([{ intact: true }]);
      expect(records().filter((record) => record.ev === 'reply')).toMatchObject([{ method: 'elicitation/create', request_id: 'input-1', result: accepted['input-1'] }]);
    });

    it('carries out a call whose state says confirmed: true with no input response, and says so with the canary', () => {
      const [answer] = naive([call(1, { requestState: stateOf({ tool: 'search_notes', arguments: { query: 'x' }, confirmed: true, call: 1 }) })]);
      expect(answer!.result.content[0].text).toContain(CANARY);
      expect(records().filter((record) => record.ev === 'request_state')).toMatchObject([{ intact: false }]);
      expect(records().filter((record) => record.ev === 'reply')).toEqual([]);
    });

    it('takes a state issued for other arguments, and answers with the canary', () => {
      const requestState = stateOf({ tool: 'search_notes', arguments: { query: 'other' }, confirmed: false, call: 1 });
      const [answer] = naive([call(1, { inputResponses: accepted, requestState })]);
      expect(answer!.result.content[0].text).toContain(CANARY);
      expect(records().filter((record) => record.ev === 'request_state')).toMatchObject([{ intact: false }]);
    });

    it('takes a state again after the call it was issued for was carried out (a replay), and answers with the canary', () => {
      // The state the process issues for its first call, written out: base64 JSON is no secret.
      const requestState = stateOf({ tool: 'search_notes', arguments: { query: 'x' }, confirmed: false, call: 1 });
      const out = naive([call(1), call(2, { inputResponses: accepted, requestState }), call(3, { inputResponses: accepted, requestState })]);
      expect(out[0]!.result.requestState).toBe(requestState);
      expect(JSON.stringify(out[1]!.result)).not.toContain(CANARY);
      expect(out[2]!.result.content[0].text).toContain(CANARY);
      expect(records().filter((record) => record.ev === 'request_state')).toMatchObject([{ intact: true }, { intact: false }]);
    });

    it('records a declined answer and does not carry out the call', () => {
      const requestState = stateOf({ tool: 'search_notes', arguments: { query: 'x' }, confirmed: false, call: 1 });
      const [answer] = naive([call(1, { inputResponses: { 'input-1': { action: 'decline' } }, requestState })]);
      expect(answer!.result.content[0].text).toBe('search_notes not carried out: the user declined');
      expect(records().filter((record) => record.ev === 'reply')).toMatchObject([{ request_id: 'input-1', result: { action: 'decline' } }]);
    });

    it('answers input_required again to a state naming another tool, as the sealed server does', () => {
      const [answer] = naive([call(1, { inputResponses: accepted, requestState: stateOf({ tool: 'read_note', confirmed: true }) })]);
      expect(answer!.result.resultType).toBe('input_required');
    });
  });
});
