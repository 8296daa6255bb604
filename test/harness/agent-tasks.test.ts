// The agent and the tasks extension (2026-07-28), against a stand-in broker on a line channel: a
// call answered with a task is polled to its end with tasks/get, a task asking for input answered
// with tasks/update, the interim answers kept where the judges read what the agent received, and
// a broker whose task never ends met with a bound.

import { describe, expect, it } from 'vitest';
import { AgentClient } from '../../harness/agent/client.js';
import { endedAs, MAX_TASK_POLLS, TASKS_EXTENSION } from '../../harness/agent/tasks.js';
import type { ClientSide } from '../../harness/scenario/types.js';
import { countByMethod, initiatedIn } from '../../harness/observe/initiated.js';
import { standIn } from './agent-stand-in.js';

const ELICIT = { method: 'elicitation/create', params: { mode: 'form', message: 'Folder?', requestedSchema: { type: 'object', properties: {} } } };
const side: ClientSide = { tasks: true, elicitation: { answer: { action: 'accept', content: { folder: 'inbox' } } } };
const task = (status: string, extra: Record<string, unknown> = {}) => ({ resultType: 'complete', taskId: 't-1', status, ...extra });

describe('AgentClient and tasks', () => {
  it('declares the extension, polls a task to its end and answers with its result, every interim answer kept', async () => {
    let polls = 0;
    const { channel, sent } = standIn((message) => {
      if (message.method === 'tools/call') return { resultType: 'task', taskId: 't-1', status: 'working' };
      polls += 1;
      return polls < 3 ? task('working') : task('completed', { result: { content: [{ type: 'text', text: 'done' }] } });
    });
    const agent = new AgentClient(channel, 2_000, side, '2026-07-28');
    const answer = await agent.callTool('t', {});
    expect(answer).toMatchObject({ kind: 'result', result: { content: [{ type: 'text', text: 'done' }] } });
    expect(sent.map((message) => message.method)).toEqual(['tools/call', 'tasks/get', 'tasks/get', 'tasks/get']);
    expect(sent[0]!.params!._meta).toMatchObject({ 'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS_EXTENSION]: {} } } });
    expect(sent[1]!.params).toMatchObject({ taskId: 't-1', _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } });
    expect(agent.unsolicited).toHaveLength(3);
  });

  it('answers a task asking for input with tasks/update, and counts its requests as received', async () => {
    let asked = false;
    const { channel, sent } = standIn((message) => {
      if (message.method === 'tools/call') return { resultType: 'task', taskId: 't-1', status: 'working' };
      if (message.method === 'tasks/update') return { resultType: 'complete' };
      if (!asked) {
        asked = true;
        return task('input_required', { inputRequests: { 'input-1': ELICIT } });
      }
      return task('completed', { result: { content: [] } });
    });
    const agent = new AgentClient(channel, 2_000, side, '2026-07-28');
    expect((await agent.callTool('t', {})).kind).toBe('result');
    expect(sent.map((message) => message.method)).toEqual(['tools/call', 'tasks/get', 'tasks/update', 'tasks/get']);
    expect(sent[2]!.params).toMatchObject({ taskId: 't-1', inputResponses: { 'input-1': { action: 'accept', content: { folder: 'inbox' } } } });
    expect(countByMethod(initiatedIn(agent.unsolicited)).get('elicitation/create')).toBe(1);
  });

  it('cancels the task before its first poll when the call step says so, and answers with the cancelled task', async () => {
    let cancelled = false;
    const { channel, sent } = standIn((message) => {
      if (message.method === 'tools/call') return { resultType: 'task', taskId: 't-1', status: 'working' };
      if (message.method === 'tasks/cancel') {
        cancelled = true;
        return { resultType: 'complete' };
      }
      return task(cancelled ? 'cancelled' : 'working');
    });
    const answer = await new AgentClient(channel, 2_000, side, '2026-07-28').callTool('t', {}, { cancelTask: true });
    expect(answer).toMatchObject({ kind: 'result', result: { status: 'cancelled', taskId: 't-1' } });
    expect(sent.map((message) => message.method)).toEqual(['tools/call', 'tasks/cancel', 'tasks/get']);
    expect(sent[1]!.params).toMatchObject({ taskId: 't-1' });
  });

  it('answers with a failed task’s error, and a cancelled task itself', async () => {
    expect(endedAs(task('failed', { error: { code: -32000, message: 'no' } }))).toEqual({ error: { code: -32000, message: 'no' } });
    expect(endedAs(task('cancelled'))).toEqual({ result: task('cancelled') });
    expect(endedAs(task('completed'))).toEqual({ problem: 'a completed task without its result' });
  });

  it(`gives up on a task still working after ${MAX_TASK_POLLS} polls`, async () => {
    const { channel, sent } = standIn((message) => (message.method === 'tools/call' ? { resultType: 'task', taskId: 't-1', status: 'working' } : task('working')));
    const answer = await new AgentClient(channel, 2_000, side, '2026-07-28').callTool('t', {});
    expect(answer).toMatchObject({ kind: 'malformed', why: `task t-1 still not ended after ${MAX_TASK_POLLS} polls` });
    expect(sent).toHaveLength(1 + MAX_TASK_POLLS);
  });

  it('takes a task as the answer when the scenario does not declare the extension', async () => {
    const { channel, sent } = standIn(() => ({ resultType: 'task', taskId: 't-1', status: 'working' }));
    const answer = await new AgentClient(channel, 2_000, {}, '2026-07-28').callTool('t', {});
    expect(answer).toMatchObject({ kind: 'result', result: { resultType: 'task' } });
    expect(sent).toHaveLength(1);
  });
});
