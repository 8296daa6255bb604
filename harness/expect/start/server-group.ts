import { launches } from '../../observe/ledger.js';
import { UnsupportedEnvironment } from '../../run/outcome.js';
import { expectation } from '../types.js';

/** A server in the candidate's own group dies with every signal sent to it, and it to the server. */
export default expectation({
  block: 'start',
  name: 'server_group',
  doc: "every server started for this session runs in a process group other than the candidate's (read from the ledger's launch records)",
  properties: { server_group: { enum: ['separate'] } },
  checks: {
    'start.server_group': { class: 'harm', doc: "no server shares the candidate's process group" },
    'start.server_launched': { class: 'benign', doc: 'a server was launched, so its group can be read' },
  },
  async observe(_expect, facts, live) {
    if (launches(live.records().slice(facts.mark)).some((launch) => launch.pgid === null)) {
      throw new UnsupportedEnvironment(`${facts.label}: the server could not read its process group from /proc`);
    }
  },
  judge(_expect, facts, { records }, fail) {
    const started = launches(records.slice(facts.mark, facts.end));
    if (started.length === 0) fail('start.server_launched', 'server in a group of its own', 'a server launch to inspect', 'none');
    for (const launch of started) {
      if (launch.pgid === facts.pgid) fail('start.server_group', 'server in a group of its own', `a process group other than the candidate's (${facts.pgid})`, `server pid ${launch.pid} in group ${launch.pgid}`);
    }
  },
});
