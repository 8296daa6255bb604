import type { RecvRecord } from '../../../servers/kit/ledger.js';
import { pidsOf } from '../../observe/ledger.js';
import { expectation } from '../types.js';

/**
 * Routing, from each server's own ledger records: which of several servers a call reached. A
 * server that received more calls than the step allows got a call that was not its own (harm);
 * one that received fewer never got the call the agent made of it (the benign use broken).
 */
export default expectation({
  block: 'call',
  name: 'servers_received',
  doc: 'with several servers: how many `tools/call` requests (of any tool) each named server received between the step\'s start and its end, from its own ledger records',
  properties: { servers_received: { type: 'object', minProperties: 1, propertyNames: { $ref: '#/$defs/serverName' }, additionalProperties: { type: 'integer', minimum: 0 } } },
  checks: {
    'call.servers_received': { class: 'harm', doc: 'no server received more of the step\'s calls than the step allows: none reached a server it was not for' },
    'call.servers_reached': { class: 'benign', doc: 'the call reached the server whose tool it is' },
  },
  checksFor: ({ servers_received: wanted = {} }) => (Object.values(wanted).some((count) => count > 0) ? ['call.servers_received', 'call.servers_reached'] : ['call.servers_received']),
  judge({ servers_received: wanted = {} }, facts, { records }, fail) {
    const step = records.slice(facts.mark, facts.end);
    for (const [name, count] of Object.entries(wanted)) {
      const pids = pidsOf(records, name);
      const received = step.filter((record): record is RecvRecord => pids.has(record.pid) && record.ev === 'recv' && record.method === 'tools/call');
      if (received.length === count) continue;
      const tools = received.map((record) => record.tool ?? '?').join(', ');
      fail(received.length > count ? 'call.servers_received' : 'call.servers_reached', `server ${name} receives ${facts.calledAs}`, `${count} tools/call`, `${received.length} tools/call${tools === '' ? '' : ` (${tools})`}`);
    }
  },
});
