// Guards acting on drift found during a session (docs/reference-broker.md, "Drift during a
// session"). The server's notice that its tools changed is only the occasion: what counts is
// the broker's own second look, decided as Load decides.

import { refusal } from '../session/refusal.js';
import type { CallGuard, DriftGuard, RediscoveryGuard } from './types.js';

const DRIFT_QUARANTINE = 'drift-quarantine';

/** A tool that drifted is held for the rest of the session. */
export const quarantineDrifted: DriftGuard = {
  name: DRIFT_QUARANTINE,
  react(drifted, { quarantine }) {
    for (const { tool, guard } of drifted) quarantine.hold(tool.name, guard);
  },
};

/** ...and every call to it is refused before anything else is judged, never reaching the server. */
export const quarantinedRefused: CallGuard = {
  name: DRIFT_QUARANTINE,
  check({ name, tool }, { quarantine }) {
    const heldBy = tool === undefined ? undefined : quarantine.heldBy(tool.name);
    if (heldBy === undefined) return { kind: 'pass' };
    // The guard's name, never the server's words: the sentence reaches the model.
    const sentence = `${name} is quarantined: during this session the server presented it differently from what was reviewed (${heldBy}), and it stays refused until the operator reviews it again.`;
    return { kind: 'refuse', refusal: refusal('tool_quarantined', sentence, {}) };
  },
};

/**
 * The session that presented the drift is the one the earlier discovery passed: it cannot be
 * trusted for any tool, so it is closed, and calls to the other tools fail as server_unavailable
 * rather than go on over it.
 */
export const driftClosesSession: DriftGuard = {
  name: 'drift-closes-session',
  react(drifted, { closeUpstream }) {
    return closeUpstream(`after ${drifted.map(({ tool }) => tool.name).join(', ')} drifted`);
  },
};

/**
 * A server can send notices faster than any listing answers. Without a bound every notice queues
 * one more rediscovery and every call waits for all of them: a notice that arrives while one is
 * still waiting to begin is already covered by it (it lists after the notice), and a call waits
 * no longer than its own timeout, refused `tool_timeout` unforwarded when the decision is not made
 * by then.
 */
export const rediscoveryBounded: RediscoveryGuard = {
  name: 'rediscovery-bounded',
  coalesce: true,
  waitBound: (callTimeoutMs) => callTimeoutMs,
};
