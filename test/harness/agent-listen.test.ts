// The agent's subscriptions/listen in a 2026-07-28 case (harness/agent/listen.ts): one stream a
// session, asking for every list change with the revision's `_meta`; settled by the broker's
// acknowledgment of that stream (not another's), its answer, or the time running out; and what
// arrives on the stream kept with the other lines the agent received, counted as in 2025-11-25.

import { describe, expect, it } from 'vitest';
import { AgentClient } from '../../harness/agent/client.js';
import { acknowledges } from '../../harness/agent/listen.js';
import { standInBroker } from './agent-stand-in.js';
import { countByMethod, initiatedIn } from '../../harness/observe/initiated.js';

const ack = (id: unknown) => ({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { _meta: { 'io.modelcontextprotocol/subscriptionId': id }, notifications: { resourcesListChanged: true } } });
const notice = (method: string, id: unknown) => ({ jsonrpc: '2.0', method, params: { _meta: { 'io.modelcontextprotocol/subscriptionId': id } } });

describe('the agent’s subscriptions/listen', () => {
  it('asks for every list change with the revision’s _meta, is settled by its acknowledgment, and keeps what arrives on the stream', async () => {
    const { channel, sent, push } = standInBroker((message) => (message.method === 'subscriptions/listen' ? [ack(message.id)] : []));
    const agent = new AgentClient(channel, 2_000, {}, '2026-07-28');
    expect(await agent.listen()).toBe('acknowledged');
    expect(sent[0]!.method).toBe('subscriptions/listen');
    expect(sent[0]!.params).toMatchObject({
      notifications: { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true },
      _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' },
    });
    push(notice('notifications/resources/list_changed', sent[0]!.id));
    push(notice('notifications/resources/list_changed', sent[0]!.id));
    const counts = countByMethod(initiatedIn(agent.unsolicited).filter((message) => !message.request));
    expect(counts.get('notifications/resources/list_changed')).toBe(2);
    expect(counts.get('notifications/subscriptions/acknowledged')).toBe(1);
    await expect(agent.listen()).rejects.toThrow('one subscriptions/listen a session');
  });

  it('is refused by an error answer, ended by a result, and silent when nothing comes in time; another stream’s acknowledgment settles nothing', async () => {
    const refusing = standInBroker((message) => [{ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } }]);
    expect(await new AgentClient(refusing.channel, 2_000, {}, '2026-07-28').listen()).toBe('refused');
    const ending = standInBroker((message) => [{ jsonrpc: '2.0', id: message.id, result: { resultType: 'complete' } }]);
    expect(await new AgentClient(ending.channel, 2_000, {}, '2026-07-28').listen()).toBe('ended');
    const other = standInBroker(() => [ack(99)]);
    expect(await new AgentClient(other.channel, 2_000, {}, '2026-07-28').listen(50)).toBe('silent');
  });

  it('knows a stream’s acknowledgment by its id as the agent wrote it, and nothing else', () => {
    expect(acknowledges(JSON.stringify(ack(7)), 7)).toBe(true);
    expect(acknowledges('{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":7.0}}}', 7)).toBe(false);
    expect(acknowledges(JSON.stringify(ack('7')), 7)).toBe(false);
    expect(acknowledges(JSON.stringify(notice('notifications/tools/list_changed', 7)), 7)).toBe(false);
    expect(acknowledges('not json', 7)).toBe(false);
  });
});
