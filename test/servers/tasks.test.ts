import { describe, expect, it } from 'vitest';
import { resolveKnobs } from '../../servers/kit/knobs.js';
import { CANARY } from '../../servers/kit/payloads.js';
import { FOREIGN_TASK_ID, TASKS_EXTENSION } from '../../servers/kit/tasks.js';
import { stdioKit } from './stdio-kit.js';

// task.<tool> (the tasks extension of 2026-07-28) through the compiled server over stdio: a call
// declaring the extension made a task, polled to its end by counted polls, its requests for input
// answered by tasks/update, and every task method recorded with the id it named.

const kit = stdioKit('kit-tasks');
const serve = (knobs: string[], lines: unknown[]) => kit.serve(['revisions=2026-07-28', ...knobs], lines);
const records = kit.records;

const capabilities = (tasks: boolean) => ({ elicitation: {}, ...(tasks ? { extensions: { [TASKS_EXTENSION]: {} } } : {}) });
const meta = (tasks = true) => ({ 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': capabilities(tasks) });
const call = (id: number, tasks = true, name = 'search_notes') => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: { query: 'x' }, _meta: meta(tasks) } });
const task = (id: number, method: string, taskId: string, extra: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method, params: { taskId, _meta: meta(), ...extra } });

describe('task.<tool>', () => {
  it('makes a task of a call declaring the extension, completed on the Nth poll with what the call answers', () => {
    const out = serve(['task.search_notes=2', 'result.search_notes=plain'], [call(1)]);
    expect(out[0]).toMatchObject({ id: 1, result: { resultType: 'task', status: 'working', ttlMs: 60000 } });
    const taskId = out[0]!.result.taskId as string;
    expect(taskId).toMatch(/^tsk_[0-9a-f]{32}$/);
    kit.forgetLedger();
    const polls = serve(['task.search_notes=2', 'result.search_notes=plain'], [call(1), task(2, 'tasks/get', taskId), task(3, 'tasks/get', taskId)]);
    expect(polls[1]).toMatchObject({ id: 2, result: { resultType: 'complete', taskId, status: 'working' } });
    expect(polls[2]).toMatchObject({ id: 3, result: { resultType: 'complete', taskId, status: 'completed', result: { resultType: 'complete', content: [{ type: 'text', text: 'Found 3 notes.' }] } } });
    expect(records().filter((record) => record.ev === 'task').map((record) => (record as { method: string }).method)).toEqual(['tools/call', 'tasks/get', 'tasks/get']);
  });

  it('answers a call that does not declare the extension at once, as the spec requires', () => {
    const [out] = serve(['task.search_notes=2', 'result.search_notes=plain'], [call(1, false)]);
    expect(out).toMatchObject({ id: 1, result: { resultType: 'complete', content: [{ type: 'text', text: 'Found 3 notes.' }] } });
  });

  it('advertises the extension in server/discover', () => {
    const [out] = serve(['task.search_notes=1'], [{ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta() } }]);
    expect(out!.result.capabilities.extensions).toEqual({ [TASKS_EXTENSION]: {} });
  });

  it('goes input_required with ask.<tool>, records each response of tasks/update as a reply, then completes', () => {
    const knobs = ['task.write_note=1', 'ask.write_note=elicit-form'];
    const created = serve(knobs, [call(1, true, 'write_note')]);
    const taskId = created[0]!.result.taskId as string;
    kit.forgetLedger();
    const answer = { action: 'accept', content: { folder: 'inbox' } };
    const out = serve(knobs, [call(1, true, 'write_note'), task(2, 'tasks/get', taskId), task(3, 'tasks/update', taskId, { inputResponses: { 'input-1': answer } }), task(4, 'tasks/get', taskId)]);
    expect(out[1]).toMatchObject({ result: { status: 'input_required', inputRequests: { 'input-1': { method: 'elicitation/create' } } } });
    expect(out[2]).toMatchObject({ id: 3, result: { resultType: 'complete' } });
    expect(out[3]).toMatchObject({ id: 4, result: { status: 'completed' } });
    expect(records().filter((record) => record.ev === 'reply')).toEqual([expect.objectContaining({ method: 'elicitation/create', request_id: 'input-1', result: answer, error: null })]);
  });

  it('fails a task whose call errs, carrying the error', () => {
    const out = serve(['task.search_notes=1', 'error.search_notes=plain'], [call(1), task(2, 'tasks/get', 'x')]);
    const taskId = out[0]!.result.taskId as string;
    const [, get] = serve(['task.search_notes=1', 'error.search_notes=plain'], [call(1), task(2, 'tasks/get', taskId)]);
    expect(get).toMatchObject({ result: { status: 'failed', error: { code: expect.any(Number), message: expect.any(String) } } });
  });

  it('task_ids=predictable numbers its tasks and holds another user’s task-0, answered and cancelled for anyone', () => {
    const knobs = ['task.search_notes=1', 'task_ids=predictable'];
    const out = serve(knobs, [call(1), task(2, 'tasks/get', FOREIGN_TASK_ID), task(3, 'tasks/cancel', FOREIGN_TASK_ID), task(4, 'tasks/get', 'task-9')]);
    expect(out[0]).toMatchObject({ result: { taskId: 'task-1' } });
    expect(out[1]).toMatchObject({ result: { taskId: FOREIGN_TASK_ID, status: 'completed', result: { content: [{ type: 'text', text: expect.stringContaining(CANARY) }] } } });
    expect(out[2]).toMatchObject({ id: 3, result: { resultType: 'complete' } });
    expect(out[3]).toMatchObject({ id: 4, error: { code: -32602 } });
    expect(records().filter((record) => record.ev === 'task').slice(1)).toEqual([
      expect.objectContaining({ method: 'tasks/get', task_id: FOREIGN_TASK_ID, known: true, foreign: true }),
      expect.objectContaining({ method: 'tasks/cancel', task_id: FOREIGN_TASK_ID, known: true, foreign: true }),
      expect.objectContaining({ method: 'tasks/get', task_id: 'task-9', known: false, foreign: false }),
    ]);
  });

  it('refuses task.<tool> on a server that does not speak 2026-07-28, and task_ids with no task.<tool>', () => {
    expect(() => resolveKnobs({ 'task.search_notes': '1' })).toThrow(/task\.search_notes needs revisions/);
    expect(() => resolveKnobs({ revisions: '2026-07-28', task_ids: 'predictable' })).toThrow(/needs a task\.<tool>/);
    expect(() => resolveKnobs({ revisions: '2026-07-28', 'task.search_notes': '17' })).toThrow(/bad value/);
  });
});
