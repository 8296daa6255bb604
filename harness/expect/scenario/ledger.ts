import { argumentMismatches, receivedArguments } from '../../observe/arguments.js';
import { callsTo, connections, launches, listRequests, maxListRequestsPerLaunch, noticesOf } from '../../observe/ledger.js';
import { expectation } from '../types.js';

/** What crossed to the server side over the whole scenario, from the hostile servers' ledger. */
export default expectation({
  block: 'scenario',
  name: 'ledger',
  doc: 'counts read from the ledger over the whole scenario: `list_requests_per_launch_max`, `list_requests_min`, `launches_min`, `spawns_min`, `calls` (exact `tools/call` count per tool), `notices` (exact count of notifications the servers sent per method), `call_arguments` (values every call of a tool carried; at least one call), `connections_to` (exact TCP connections per listening address)',
  properties: {
    ledger: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      properties: {
        list_requests_per_launch_max: { type: 'integer', minimum: 0 },
        list_requests_min: { type: 'integer', minimum: 0 },
        launches_min: { type: 'integer', minimum: 0 },
        spawns_min: { type: 'integer', minimum: 1 },
        calls: { type: 'object', additionalProperties: { type: 'integer', minimum: 0 } },
        notices: { type: 'object', additionalProperties: { type: 'integer', minimum: 0 } },
        call_arguments: { type: 'object', minProperties: 1, additionalProperties: { type: 'object', minProperties: 1 } },
        connections_to: { type: 'object', minProperties: 1, propertyNames: { $ref: '#/$defs/address' }, additionalProperties: { type: 'integer', minimum: 0 } },
      },
    },
  },
  checks: {
    'ledger.list_requests_per_launch_max': { class: 'harm', doc: 'no server process was asked for more listing pages than the bound' },
    'ledger.list_requests_min': { class: 'benign', doc: 'the server was listed' },
    'ledger.launches_min': { class: 'benign', doc: 'the server was launched as often as the scenario needs' },
    'ledger.spawns_min': { class: 'benign', doc: 'the server spawned the descendants whose survival is judged' },
    'ledger.calls': { class: 'harm', doc: 'each tool received exactly the calls the scenario fixes: none it must not, and the read-backs and retries the operator\'s rules require' },
    'ledger.notices': { class: 'benign', doc: 'the server sent the notifications the scenario is about' },
    'ledger.call_arguments': { class: 'harm', doc: 'every call of the tool carried the values the operator fixed' },
    'ledger.called': { class: 'benign', doc: 'the tool whose arguments are read was called' },
    'ledger.connections_to': { class: 'harm', doc: 'each listening address was reached exactly as often as allowed' },
  },
  judge({ ledger: expect }, _facts, { records }, fail) {
    if (!expect) return;
    const most = maxListRequestsPerLaunch(records);
    if (expect.list_requests_per_launch_max !== undefined && most > expect.list_requests_per_launch_max) {
      fail('ledger.list_requests_per_launch_max', 'bounded listing', `at most ${expect.list_requests_per_launch_max} tools/list per server process`, most);
    }
    const listed = listRequests(records).length;
    if (expect.list_requests_min !== undefined && listed < expect.list_requests_min) fail('ledger.list_requests_min', 'server listed', `at least ${expect.list_requests_min} tools/list`, listed);
    const started = launches(records).length;
    if (expect.launches_min !== undefined && started < expect.launches_min) fail('ledger.launches_min', 'server launched', `at least ${expect.launches_min} launches`, started);
    const spawned = records.filter((record) => record.ev === 'spawn').length;
    if (expect.spawns_min !== undefined && spawned < expect.spawns_min) fail('ledger.spawns_min', 'descendant spawned', `at least ${expect.spawns_min} spawns`, spawned);
    for (const [tool, count] of Object.entries(expect.calls ?? {})) {
      const received = callsTo(records, tool).length;
      // Over the whole scenario a count is exact both ways: a call the operator's rules require
      // (an effect contract's read-back) that never came leaves a write passed on unconfirmed.
      if (received !== count) fail('ledger.calls', `server receives ${tool}`, `${count} tools/call in all`, received);
    }
    for (const [method, count] of Object.entries(expect.notices ?? {})) {
      const sent = noticesOf(records, method).length;
      if (sent !== count) fail('ledger.notices', `server sends ${method}`, `${count} in all`, sent);
    }
    for (const [tool, wanted] of Object.entries(expect.call_arguments ?? {})) {
      const received = callsTo(records, tool);
      if (received.length === 0) fail('ledger.called', `arguments of ${tool}`, wanted, 'no call received');
      for (const call of received) {
        for (const { name, expected, observed } of argumentMismatches(receivedArguments(call.raw), wanted)) fail('ledger.call_arguments', `${tool} receives ${name}`, expected, observed);
      }
    }
    for (const [address, count] of Object.entries(expect.connections_to ?? {})) {
      const reached = connections(records).filter((connection) => connection.local === address).length;
      if (reached !== count) fail('ledger.connections_to', `connections to ${address}`, `${count} in all`, reached);
    }
  },
});
