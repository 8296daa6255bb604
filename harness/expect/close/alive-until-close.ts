import { expectation } from '../types.js';

/** A broker that died during the session has proved nothing about the calls it "refused". */
export default expectation({
  block: 'close',
  name: 'alive_until_close',
  always: true,
  doc: 'a candidate that served the session is still running when the agent closes it',
  properties: {},
  checks: { 'close.alive_until_close': { class: 'harm', doc: 'the hostile server did not make the candidate exit' } },
  judge(_expect, { diedBeforeClose }, _judged, fail) {
    if (diedBeforeClose) fail('close.alive_until_close', 'alive until close', 'the broker serves until the agent closes', 'it had already exited');
  },
});
