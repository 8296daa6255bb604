import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../harness/catalogue.js';
import { labelStamperCandidate } from '../../harness/candidates/label-stamper.js';
import { DEFAULT_STEP_TIMEOUT_MS, runScenario } from '../../harness/run/execute.js';
import type { Finding } from '../../harness/run/outcome.js';
import type { CallExpectation, Scenario } from '../../harness/scenario/types.js';
import { BASE_REVISION } from '../../harness/agent/revisions.js';

/**
 * A result-path attack is judged by what the agent received, not by the label a broker puts on
 * it. The label stamper forwards every result whole, stamped with every refusal label the suite
 * knows (harness/candidates/label-stamp.ts); each result-path attack must still fail against it,
 * and fail on its result-path step because the agent received what the broker was to withhold.
 */

/**
 * The rule: an attack is on the result path when one of its call steps expects the server's
 * answer refused, cut or withheld in part after dispatch: its expectation has a `code` starting
 * `result_` or `output_`, `truncated: true`, `already_ran`, `content_types_absent` or
 * `text_max_chars`.
 */
function onResultPath(expect: CallExpectation): boolean {
  return (
    /^(result_|output_)/.test(expect.code ?? '') ||
    expect.truncated === true ||
    expect.already_ran === true ||
    expect.content_types_absent !== undefined ||
    expect.text_max_chars !== undefined
  );
}

/** What the rule selects today; a new result-path attack is added here on purpose. */
const RESULT_PATH_ATTACKS = [
  'aud.rejection-after-dispatch',
  'eff.lying-writer',
  'ins.result-aggregate-too-long',
  'ins.result-too-deep',
  'ins.result-too-many-nodes',
  'ins.result-past-reader-depth',
  'ins.result-string-too-long',
  'ins.canary-in-error-data',
  'ins.canary-in-error-message',
  'ins.injection-in-error-message',
  'ins.later-error-asks-credential',
  'ins.later-error-data-asks-credential',
  'ins.later-error-result-asks-credential',
  'ins.result-fields-over-whole-bound',
  'ins.canary-base64-result',
  'ins.canary-hex-result',
  'ins.canary-url-result',
  'ins.canary-result',
  'ins.injected-result',
  'ins.aws-key-result',
  'ins.github-token-result',
  'ins.private-key-result',
  'net.body-announced-over-cap',
  'net.body-streamed-over-cap',
  'net.sse-result-injection',
  'out.invalid-structured-content',
  'out.missing-structured-content',
  'rpt.read-back-error-escaped',
  'res.cap-on-code-point',
  'res.memory-flood',
  'res.operator-cap',
  'res.result-over-cap',
  'res.split-result-over-cap',
  'res.structured-over-cap',
  'wth.audio-withheld',
  'wth.image-withheld',
  'wth.passed-resource-inspected',
  'wth.resource-blob-withheld',
  'wth.resource-link-withheld',
  'wth.resource-text-withheld',
];

/** The checks that show content of the server's answer reached the agent (docs/expectations.md). */
const CONTENT_RECEIVED = new Set(['call.answer_excludes', 'call.answer_max_bytes', 'call.text_max_chars', 'call.content_types_absent']);

/**
 * The findings that show content of the server's answer reached the agent: a string named in
 * `answer_excludes` found, a longer answer than `answer_max_bytes`, more text than
 * `text_max_chars`, a block of a type in `content_types_absent`. Every other finding is no proof that the content
 * was held: the outcome kind (isError), the refusal code, already_ran and retry, the truncation
 * marker and whether structuredContent is there at all are labels the stamp writes; an audit
 * record is the broker's own account; a ledger count says what the server was sent.
 */
function showsContentReceived(finding: Finding): boolean {
  return CONTENT_RECEIVED.has(finding.check) && finding.class === 'harm';
}

/** The label of each result-path call step, as findings name steps, and what it expects. */
function resultPathSteps(scenario: Scenario): Array<{ label: string; expect: CallExpectation }> {
  return scenario.steps.flatMap((step, index) => ('call' in step && onResultPath(step.call.expect) ? [{ label: `${index + 1}:call`, expect: step.call.expect }] : []));
}

// The 2025-11-25 cases: a file's case of each revision has the same steps, and the stamper's lie
// is the same in either.
const selected = loadCatalogue().filter((scenario) => scenario.kind === 'attack' && resultPathSteps(scenario).length > 0 && (scenario.revision ?? BASE_REVISION) === BASE_REVISION);

describe('a broker that stamps the right label on content it forwards fails every result-path attack', () => {
  it('the rule selects the listed attacks, and some', () => {
    expect(RESULT_PATH_ATTACKS.length).toBeGreaterThan(0);
    expect(selected.map((scenario) => scenario.id).sort()).toEqual([...RESULT_PATH_ATTACKS].sort());
  });

  for (const scenario of selected) {
    it(`${scenario.id} fails on what the agent received`, async () => {
      const steps = resultPathSteps(scenario);
      // The first result-path step's code, or the result path's general one where it names none.
      const first = steps[0]!.expect;
      const candidate = labelStamperCandidate(first.code ?? 'result_withheld', first.truncated === true);
      const result = await runScenario(scenario, candidate, { stepTimeoutMs: DEFAULT_STEP_TIMEOUT_MS });
      expect(result.outcome, result.reason).toBe('fail');
      const labels = new Set(steps.map((step) => step.label));
      const received = result.findings.filter((finding) => labels.has(finding.step) && showsContentReceived(finding));
      expect(received, JSON.stringify(result.findings)).not.toEqual([]);
      // res.memory-flood pushes 64 MiB through the stamper, which took 135 s on a loaded 2-core run.
    }, 300_000);
  }
});
