import { initiatedIn, progressToken } from '../../observe/initiated.js';
import { expectation } from '../types.js';

/**
 * Progress reaches the agent only for the token it issued with the call (`progress_token`); a
 * notification for any other token (one the server made up, one another request was given) is
 * harm: it reports on work the agent never asked about.
 */
export default expectation({
  block: 'call',
  name: 'progress_own_only',
  doc: 'every `notifications/progress` the agent received from the call until the next step that talks to the broker names the progress token the call step issued (none, when it issued none)',
  properties: { progress_own_only: { const: true } },
  checks: { 'call.progress_own_only': { class: 'harm', doc: 'no progress for a token the agent did not issue reached it' } },
  judge(_expect, { step, others }, _judged, fail) {
    for (const notice of initiatedIn(others)) {
      if (notice.request || notice.method !== 'notifications/progress') continue;
      const token = progressToken(notice);
      if (token === undefined || token !== step.progress_token) {
        fail('call.progress_own_only', 'progress only for the agent’s own token', step.progress_token ?? 'no progress at all', token ?? 'a progress notification with no token');
      }
    }
  },
});
