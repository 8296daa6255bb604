// CVE-2025-6514, mcp-remote >= 0.0.5, < 0.1.16: the authorization URL a
// server's OAuth metadata names is handed to the `open` package, which on Windows runs it through
// PowerShell. Each pinned version is installed on its own (pinned-install.ts) and run by the
// suite's own mcp-remote adapter against the crd.oauth-* scenarios: the vulnerable versions are
// exposed on a harm check, the fixed one holds every attack, and all of them open the honest
// sign-in page (the control), so no version holds by refusing to sign in at all.
// `npm run test:advisories`; docs/advisories.md gives the measured results.

import { beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../harness/catalogue.js';
import { mcpRemoteCandidate } from '../../harness/candidates/brokers/mcp-remote.js';
import type { Candidate } from '../../harness/candidates/types.js';
import { runScenario } from '../../harness/run/execute.js';
import { pinnedInstall } from './pinned-install.js';

const scenarios = new Map(loadCatalogue().map((scenario) => [scenario.id, scenario]));
/** mcp-remote waits for the user at the sign-in; by then it has opened (or refused) the URL. */
const STEP_TIMEOUT_MS = 8_000;

/**
 * The harm checks each version fails, by scenario; none for a scenario it holds. 0.1.14 handed
 * the URL over as the server wrote it; 0.1.15 checked the scheme and percent-encoded the path,
 * query and fragment, but left the user-info as it was; 0.1.16 encodes the user-info too.
 */
const EXPECTED: Record<string, Record<string, string[]>> = {
  '0.1.14': {
    'crd.oauth-userinfo-payload': ['opened.excludes'],
    'crd.oauth-path-payload': ['opened.excludes'],
    'crd.oauth-scheme-payload': ['opened.excludes', 'opened.https_only'],
  },
  '0.1.15': { 'crd.oauth-userinfo-payload': ['opened.excludes'], 'crd.oauth-path-payload': [], 'crd.oauth-scheme-payload': [] },
  '0.1.16': { 'crd.oauth-userinfo-payload': [], 'crd.oauth-path-payload': [], 'crd.oauth-scheme-payload': [] },
};

describe.each(Object.keys(EXPECTED))('mcp-remote %s', (version) => {
  let candidate: Candidate;
  beforeAll(async () => {
    candidate = mcpRemoteCandidate({ installedFrom: await pinnedInstall('mcp-remote', version) });
    expect(candidate.info.version).toBe(version);
  }, 300_000);

  it('opens the honest sign-in page once (the control)', async () => {
    const result = await runScenario(scenarios.get('crd.oauth-sign-in-opened')!, candidate, { stepTimeoutMs: STEP_TIMEOUT_MS });
    expect(result.findings, result.reason).toEqual([]);
    expect(result.outcome).toBe('pass');
  }, 60_000);

  for (const [id, failing] of Object.entries(EXPECTED[version]!)) {
    it(`${failing.length === 0 ? 'holds' : `is exposed on ${failing.join(', ')} of`} ${id}`, async () => {
      const result = await runScenario(scenarios.get(id)!, candidate, { stepTimeoutMs: STEP_TIMEOUT_MS });
      expect(result.findings.filter((finding) => finding.class === 'harm').map((finding) => finding.check).sort(), result.reason).toEqual(failing);
      expect(result.outcome).toBe(failing.length === 0 ? 'pass' : 'fail');
      if (failing.length > 0) expect(result.failure).toBe('exposed');
    }, 60_000);
  }
});
