// CVE-2025-49596 (GHSA-7f8r-222p-6f5g), @modelcontextprotocol/inspector < 0.14.1: the Inspector's
// proxy starts the stdio command a client names in its query string and required nothing of that
// client: no credential, no Origin check, and it listened on every interface. Any web page the user
// opened (or anyone on the network) could run a command. 0.14.1 draws a session token it prints and
// requires, refuses Origins other than its web client's, and binds 127.0.0.1. Each version is
// installed on its own (pinned-install.ts) and its proxy, the package's own server/build/index.js
// that its `mcp-inspector` CLI starts (not the `@modelcontextprotocol/inspector-server` dependency,
// which both versions' caret ranges resolve to a later release), is run by the suite's adapter
// (inspector-proxy.ts) against the front-door scenarios.
// `npm run test:advisories`; docs/advisories.md gives the measured results.

import { beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../harness/catalogue.js';
import { inspectorProxyCandidate } from '../../harness/candidates/brokers/inspector-proxy.js';
import type { Candidate } from '../../harness/candidates/types.js';
import { runScenario } from '../../harness/run/execute.js';
import { pinnedInstall } from './pinned-install.js';

const scenarios = new Map(loadCatalogue().map((scenario) => [scenario.id, scenario]));
const STEP_TIMEOUT_MS = 8_000;
const VERSIONS = ['0.14.0', '0.14.1'] as const;
type Version = (typeof VERSIONS)[number];

/** What a page or a process that reaches the proxy gets through: a session, an answer, a call the server ran. */
const SERVED_TO_INTRUDER = ['http.received_excludes', 'http.server_received', 'http.unanswered'];

/**
 * The harm checks each version fails, by attack; none for an attack it holds. 0.14.0 serves every
 * client alike. 0.14.1 refuses a client without its token (401) and a foreign Origin (403), and
 * binds loopback. It has no Host check: a rebound page is refused by the token it cannot know,
 * but fdr.foreign-host-refused gives the page the credential (the Host check is a wall of its
 * own there), so 0.14.1 is exposed on it. That is outside the advisory, whose fix is the token.
 */
const ATTACKS: Record<Version, Record<string, string[]>> = {
  '0.14.0': {
    'fdr.uncredentialed-call-refused': SERVED_TO_INTRUDER,
    'fdr.hostile-origin-refused': SERVED_TO_INTRUDER,
    'fdr.other-local-origin-refused': SERVED_TO_INTRUDER,
    // With no credential, a session id is all a client needs to act in the agent's session.
    'fdr.other-session-id-refused': SERVED_TO_INTRUDER,
    'fdr.binds-loopback': ['start.listens_loopback'],
    'fdr.foreign-host-refused': ['http.server_received', 'http.unanswered'],
    // A server for each session: two clients' calls never meet in one process.
    'fdr.concurrent-calls-isolated': [],
  },
  '0.14.1': {
    'fdr.uncredentialed-call-refused': [],
    'fdr.hostile-origin-refused': [],
    'fdr.other-local-origin-refused': [],
    'fdr.other-session-id-refused': [],
    'fdr.binds-loopback': [],
    'fdr.foreign-host-refused': ['http.server_received', 'http.unanswered'],
    'fdr.concurrent-calls-isolated': [],
  },
};

/**
 * The controls of those attacks, by version: the agent and the clients holding the front door's
 * credential (the token the adapter read from the proxy's output) are served. One is not, for a
 * reason of the Inspector's own outside the advisory: 0.14.1 allows only its web client's origins
 * (port 6274), so a client sending the proxy's own origin is refused 403. (A second GET stream in
 * a session is answered 409 by the SDK transport the proxy is built on, one standalone stream a
 * session, which fdr.own-session-id-served admits: the agent's own client holds that stream.)
 */
const CONTROLS: Record<Version, Record<string, 'pass' | { refusedWith: string }>> = {
  '0.14.0': {
    'fdr.credentialed-clients-served': 'pass',
    'fdr.allowed-origin-served': 'pass',
    'fdr.own-origin-served': 'pass',
    'fdr.own-session-id-served': 'pass',
    'fdr.loopback-reached': 'pass',
    'fdr.localhost-host-served': 'pass',
    'fdr.concurrent-calls-served': 'pass',
  },
  '0.14.1': {
    'fdr.credentialed-clients-served': 'pass',
    'fdr.allowed-origin-served': 'pass',
    'fdr.own-origin-served': { refusedWith: 'HTTP 403 {"error":"Forbidden - invalid origin"' },
    'fdr.own-session-id-served': 'pass',
    'fdr.loopback-reached': 'pass',
    'fdr.localhost-host-served': 'pass',
    'fdr.concurrent-calls-served': 'pass',
  },
};

describe.each(VERSIONS)('the MCP Inspector proxy %s', (version) => {
  let candidate: Candidate;
  beforeAll(async () => {
    candidate = inspectorProxyCandidate({ installedFrom: await pinnedInstall('@modelcontextprotocol/inspector', version) });
    expect(candidate.info.version).toBe(version);
  }, 300_000);

  for (const [id, verdict] of Object.entries(CONTROLS[version])) {
    it(`${verdict === 'pass' ? 'passes' : 'over-blocks'} the control ${id}`, async () => {
      const result = await runScenario(scenarios.get(id)!, candidate, { stepTimeoutMs: STEP_TIMEOUT_MS });
      if (verdict === 'pass') {
        expect(result.findings, result.reason).toEqual([]);
        expect(result.outcome).toBe('pass');
        return;
      }
      expect(result.failure, result.reason).toBe('over-blocked');
      // Refused for the reason named above, and for no other.
      const refusals = result.findings.filter((finding) => finding.check === 'http.answered').map((finding) => String(finding.observed));
      expect(refusals.length).toBeGreaterThan(0);
      for (const refusal of refusals) expect(refusal).toContain(verdict.refusedWith);
    }, 60_000);
  }

  for (const [id, failing] of Object.entries(ATTACKS[version])) {
    it(`${failing.length === 0 ? 'holds' : `is exposed on ${failing.join(', ')} of`} ${id}`, async () => {
      const result = await runScenario(scenarios.get(id)!, candidate, { stepTimeoutMs: STEP_TIMEOUT_MS });
      const harm = new Set(result.findings.filter((finding) => finding.class === 'harm').map((finding) => finding.check));
      expect([...harm].sort(), result.reason).toEqual(failing);
      expect(result.outcome).toBe(failing.length === 0 ? 'pass' : 'fail');
      if (failing.length > 0) expect(result.failure).toBe('exposed');
    }, 60_000);
  }
});
