import { expectation } from '../types.js';

const DOC = "no line the agent or a front-door client received (an answer, an error's message, a refusal's reason, a notification, a response body), nor the reason the broker gave for refusing to start, held a secret the operator handed the broker: its own environment's token, a host's credential, a token in the configuration, a credential lent to a server";

/**
 * The operator's secrets never reach the agent, in any scenario: taken of every case, the
 * `harness/observe/secrets.ts` watch having searched every line as it arrived. A refusal that
 * quotes the configuration it refused, or an error that repeats the environment, is the leak.
 */
export default expectation({
  block: 'scenario',
  name: 'secrets.withheld',
  doc: DOC,
  properties: {},
  always: true,
  checks: { 'secrets.withheld': { class: 'harm', doc: DOC } },
  judge(_expect, { secrets = [] }, _judged, fail) {
    for (const { secret, step, holder } of secrets) fail('secrets.withheld', `agent never receives the operator's secret ${JSON.stringify(secret)}`, 'absent', `present: ${holder}`, step);
  },
});
