import { beforeAll, describe, expect, it } from 'vitest';
import { BASE_REVISION } from '../../harness/agent/revisions.js';
import { loadCatalogue } from '../../harness/catalogue.js';
import { httpsOnlyCandidate } from '../../harness/candidates/https-only.js';
import { plainHttpRefusal } from '../../harness/candidates/plain-http-refusal.js';
import { DEFAULT_STEP_TIMEOUT_MS } from '../../harness/run/execute.js';
import { defaultJobs } from '../../harness/run/pool.js';
import { runSuite } from '../../harness/run/suite.js';
import { held, type Report } from '../../harness/report/summary.js';

/**
 * An https rule is no address guard. The https-only fixture is the passthrough with no address
 * guard at all, refusing every plain-http URL that is not loopback and naming it: over http alone
 * it refuses most of the address-guard attacks, and is scored over-blocked on the controls it
 * cannot reach. Every address-guard scenario also runs over https (`variants: { scheme: [http,
 * https] }`, docs/network.md), where it dials whatever it is given: it must hold none of them, and
 * pass every control over https.
 */

describe('plainHttpRefusal', () => {
  it('refuses plain http to any host but loopback, naming the URL as written', () => {
    expect(plainHttpRefusal('http://10.0.0.5:80/mcp')).toBe('plain http to a host that is not loopback: http://10.0.0.5:80/mcp');
    expect(plainHttpRefusal('http://[::ffff:127.0.0.1]:80/mcp')).toContain('http://[::ffff:127.0.0.1]:80/mcp');
    expect(plainHttpRefusal('http://0.0.0.0:80/mcp')).toBeDefined();
    expect(plainHttpRefusal('http://mcp.example.com/mcp')).toBeDefined();
  });

  it('lets https to any host through, and plain http to loopback however it is spelled that parses to it', () => {
    for (const url of ['https://10.0.0.5/mcp', 'https://169.254.169.254/', 'https://[::1]/mcp', 'http://127.0.0.1:8/mcp', 'http://0x7f.1:8/mcp', 'http://2130706433:8/mcp', 'http://localhost:8/mcp', 'http://[::1]:8/mcp']) {
      expect(plainHttpRefusal(url), url).toBeUndefined();
    }
  });
});

/** Every case of a scenario file that runs under both schemes: the address-guard attacks and their controls. */
// The scheme's cases in 2025-11-25: the revision is another axis, of no weight to the scheme.
const varied = loadCatalogue().filter((scenario) => scenario.variant?.scheme !== undefined && (scenario.revision ?? BASE_REVISION) === BASE_REVISION);

describe('a broker whose only network rule is https', () => {
  let report: Report;
  beforeAll(async () => {
    report = await runSuite(httpsOnlyCandidate(), varied, { stepTimeoutMs: DEFAULT_STEP_TIMEOUT_MS, jobs: defaultJobs() });
  }, 600_000);

  it('runs every address-guard attack and control under both schemes, in an environment that has the enclosure', () => {
    expect(report.cases.map((c) => c.id).sort()).toEqual(varied.map((scenario) => scenario.id).sort());
    expect(report.cases.filter((c) => c.outcome === 'unsupported' || c.outcome === 'error').map((c) => `${c.id}: ${c.reason}`)).toEqual([]);
    // Both schemes of every file: 26 attacks and 3 controls, as docs/network.md lists them.
    expect(varied.filter((scenario) => scenario.kind === 'attack' && scenario.variant?.scheme === 'https')).toHaveLength(26);
    expect(varied.filter((scenario) => scenario.kind === 'control' && scenario.variant?.scheme === 'https')).toHaveLength(3);
  });

  it('holds none of them: over https it dials every address it is given, and is exposed', () => {
    const overHttps = report.cases.filter((c) => c.kind === 'attack' && c.id.endsWith('.https'));
    expect(overHttps.filter((c) => c.failure !== 'exposed').map((c) => `${c.id}: ${c.outcome} ${c.failure ?? ''}`)).toEqual([]);
    const files = new Set(report.cases.filter((c) => c.kind === 'attack').map((c) => c.id.replace(/\.https$/, '')));
    const heldEverywhere = [...files].filter((id) => report.cases.filter((c) => c.id === id || c.id === `${id}.https`).every(held));
    expect(heldEverywhere).toEqual([]);
    // Over http alone its scheme rule stood in for the missing guard: these two were held.
    const heldOverHttp = report.cases.filter((c) => c.kind === 'attack' && !c.id.endsWith('.https') && held(c)).map((c) => c.id);
    expect(heldOverHttp.sort()).toEqual(['net.mapped-address', 'net.unspecified-refused']);
  });

  it('passes every control over https, so its refusals over http are what over-block it there', () => {
    const controls = report.cases.filter((c) => c.kind === 'control');
    expect(controls.filter((c) => c.id.endsWith('.https') && c.outcome !== 'pass').map((c) => `${c.id}: ${c.reason}`)).toEqual([]);
    // Over http the rule refuses the private and public controls, which is why the http cases of
    // the attacks paired with them are not held either.
    expect(controls.filter((c) => !c.id.endsWith('.https')).map((c) => [c.id, c.outcome, c.failure])).toEqual(
      expect.arrayContaining([
        ['net.private-opted-in', 'fail', 'over-blocked'],
        ['net.public-address-reached', 'fail', 'over-blocked'],
        ['net.loopback-opted-in', 'pass', undefined],
      ]),
    );
  });
});
