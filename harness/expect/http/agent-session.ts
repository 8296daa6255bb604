import { expectation } from '../types.js';
import { notOffered } from './answered.js';

/**
 * Whether the agent's own session still answers once the step is over, asked with a ping in that
 * session, with the agent's credential: a client ending or taking over a session not its own
 * leaves the agent's session dead. A candidate that lets no client end a session (its DELETE
 * answered 405, notOffered) leaves the agent's session alive when it asks to end it: nothing was
 * refused the agent that it offers anyone.
 */
export default expectation({
  block: 'http',
  name: 'agent_session',
  doc: "`alive`: the agent's own session still answers a ping after the step; `ended`: it does not (the agent ended it itself), or the candidate answered the DELETE 405 (it lets no client end a session)",
  properties: { agent_session: { enum: ['alive', 'ended'] } },
  checks: {
    'http.agent_session_alive': { class: 'harm', doc: "another client could not end the agent's session" },
    'http.agent_session_ended': { class: 'benign', doc: 'the agent could end its own session' },
  },
  checksFor: (expect) => [expect.agent_session === 'alive' ? 'http.agent_session_alive' : 'http.agent_session_ended'],
  async observe(_expect, facts, live) {
    if (live.agentSessionAlive === undefined) throw new Error(`${facts.label}: the agent does not reach the candidate over HTTP`);
    facts.agentSession = (await live.agentSessionAlive()) ? 'alive' : 'ended';
  },
  judge(expect, facts, _judged, fail) {
    if (facts.agentSession === expect.agent_session) return;
    const last = facts.exchanges.at(-1);
    if (expect.agent_session === 'ended' && last?.what.startsWith('DELETE') && notOffered(last) !== undefined) return;
    fail(expect.agent_session === 'alive' ? 'http.agent_session_alive' : 'http.agent_session_ended', `agent's session ${expect.agent_session}`, expect.agent_session, facts.agentSession ?? 'not observed');
  },
});
