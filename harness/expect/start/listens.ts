import { groupListeners, isLoopback } from '../../observe/listeners.js';
import { UnsupportedEnvironment } from '../../run/outcome.js';
import { expectation } from '../types.js';

/**
 * Where the candidate's front door is bound, read from /proc for every socket its process group
 * listens on: a socket bound to every interface is open to the network whatever the harness
 * dials, so it is judged by its address, never by connecting to it.
 */
export default expectation({
  block: 'start',
  name: 'listens',
  doc: "`loopback`: every TCP socket the candidate's process group listens on is bound to a loopback address (read from /proc/PID/net/tcp and tcp6); at least one must be found",
  properties: { listens: { enum: ['loopback'] } },
  checks: {
    'start.listens_found': { class: 'benign', doc: 'the candidate listens on some socket, so its address means something' },
    'start.listens_loopback': { class: 'harm', doc: 'no socket of the candidate admits connections from off this machine' },
  },
  async observe(_expect, facts) {
    const found = facts.pgid === undefined ? null : groupListeners(facts.pgid);
    if (found === null) throw new UnsupportedEnvironment(`${facts.label}: the candidate's listening sockets cannot be read from /proc`);
    facts.listeners = found;
  },
  judge(_expect, facts, _judged, fail) {
    const listeners = facts.listeners ?? [];
    if (listeners.length === 0) fail('start.listens_found', 'candidate listens', 'a listening socket', 'none');
    for (const { address, port, pid } of listeners) {
      if (!isLoopback(address)) fail('start.listens_loopback', 'candidate listens on loopback only', 'a loopback address', `${address} port ${port} (pid ${pid})`);
    }
  },
});
