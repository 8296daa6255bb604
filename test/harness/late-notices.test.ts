import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../harness/catalogue.js';
import { lateNoticesCandidate } from '../../harness/candidates/late-notices.js';
import { DEFAULT_STEP_TIMEOUT_MS, runScenario } from '../../harness/run/execute.js';

/**
 * A notice that reaches the agent after the call's answer still reached it. The late-notices
 * fixture forwards every notification only after the next answer, as an HTTP broker does that
 * sends a call's notices on its GET stream: the notification attacks must fail against it on a
 * check of harm, and the control that wants a log line must still pass. Before the harness read
 * past the answer, the canary here passed as held.
 */
const scenarios = new Map(loadCatalogue().map((scenario) => [scenario.id, scenario]));

const HARM_SEEN_LATE: Record<string, string> = {
  'ntf.log-canary': 'call.answer_excludes',
  'ntf.log-flood': 'call.notifications_max',
  'ntf.log-control-characters': 'call.notifications_escaped',
  'ntf.progress-forged-token': 'call.progress_own_only',
};

describe('notices forwarded after the answer are judged', () => {
  for (const [id, check] of Object.entries(HARM_SEEN_LATE)) {
    it(`${id} is exposed on ${check}`, async () => {
      const result = await runScenario(scenarios.get(id)!, lateNoticesCandidate(), { stepTimeoutMs: DEFAULT_STEP_TIMEOUT_MS });
      expect(result.outcome, result.reason).toBe('fail');
      expect(result.findings.filter((finding) => finding.class === 'harm').map((finding) => finding.check)).toContain(check);
    }, 60_000);
  }

  for (const id of ['ntf.log-line-arrives', 'ntf.progress-own-token']) {
    it(`the control ${id} passes`, async () => {
      const result = await runScenario(scenarios.get(id)!, lateNoticesCandidate(), { stepTimeoutMs: DEFAULT_STEP_TIMEOUT_MS });
      expect(result.outcome, JSON.stringify(result.findings)).toBe('pass');
    }, 60_000);
  }
});
