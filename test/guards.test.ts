import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../harness/catalogue.js';
import { referenceCandidate } from '../harness/candidates/reference.js';
import { DEFAULT_STEP_TIMEOUT_MS } from '../harness/run/execute.js';
import { runSuite } from '../harness/run/suite.js';
import { GUARD_NAMES } from '../src/guards/registry.js';

/**
 * Each guard of the reference broker, and the scenarios that must fail once it is left out. If a
 * guard could be removed with every scenario still passing, either the guard is dead code or the
 * catalogue has a hole; both are defects.
 */
const NEEDED_BY: Record<string, string[]> = {
  'listing-bounds': ['lst.endless-pages', 'lst.repeating-cursor', 'lst.tool-flood'],
  'listing-unique': ['lst.duplicate-same-page', 'lst.duplicate-across-pages'],
  classified: ['cls.unclassified-tool-withheld'],
  pinned: ['pin.unpinned-tool'],
  'still-offered': ['pin.dropped-tool'],
  // The reworded description also asks for ~/.ssh/id_rsa, which descriptor inspection withholds
  // on its own: only removing both protections lets the rug pull through.
  'description-pin+inspect-descriptors': ['pin.description-reworded', 'pin.drift-stays-refused'],
  'schema-pin': ['pin.schema-loosened', 'pin.float-drift'],
  // Rediscovery decides as Load does, so the pin guard also finds the drift during a session.
  'output-schema-pin': ['pin.output-schema-changed', 'drf.output-schema-loosened'],
  'drift-quarantine': ['drf.schema-loosened', 'drf.description-reworded', 'drf.output-schema-loosened', 'drf.tool-withdrawn', 'drf.quarantine-closes-session'],
  'drift-closes-session': ['drf.quarantine-closes-session'],
  'hint-consistency': ['hnt.destructive-hint-refuses', 'hnt.read-only-class-without-hint', 'hnt.live-hint-contradicts'],
  'operator-annotations': ['hnt.readonly-hint-never-relaxes', 'cls.operator-class-shown'],
  'operator-description': ['dsc.override-replaces-poisoned'],
  'registered-calls-only': ['cls.unclassified-tool-withheld', 'pin.dropped-tool'],
  'nothing-registered': ['cls.nothing-registered-fails-closed'],
  'object-schema': ['sch.not-object'],
  'schema-compiles': ['sch.uncompilable'],
  'self-contained': ['sch.ref-to-url', 'sch.ref-to-file', 'sch.id-url', 'sch.unknown-dialect', 'sch.ref-in-default', 'sch.ref-in-examples'],
  // Defence in depth: what self-contained misses, the compiler still refuses, so only removing
  // both lets these schemas through.
  'self-contained+schema-compiles': ['sch.ref-relative', 'sch.dynamic-ref-url', 'sch.draft04-id'],
  'hidden-names-sound': [
    'par.hidden-name-in-anyof',
    'par.hidden-name-in-if-then',
    'par.hidden-name-in-dependent-required',
    'par.hidden-name-in-defs',
    'par.hidden-name-in-pattern-properties',
    'par.misspelled-hidden-name',
  ],
  'hidden-params-refused': ['par.denied-parameter-hidden', 'par.fixed-parameter-supplied'],
  'name-rules': ['nam.server-name-breaks-rules', 'nam.rename-breaks-rules'],
  'name-unique': ['nam.rename-collision'],
  'input-valid': [
    'val.broken-type',
    'val.broken-required',
    'val.broken-additional-properties',
    'val.broken-minimum',
    'val.broken-maximum',
    'val.broken-min-length',
    'val.broken-max-length',
    'val.broken-pattern',
    'val.broken-enum',
    'val.broken-const',
    'val.broken-max-items',
    'val.broken-unique-items',
    'val.broken-exclusive-minimum',
    'val.broken-exclusive-maximum',
    'val.broken-multiple-of',
    'val.broken-min-items',
    'val.broken-not',
    'val.broken-dependent-required',
    'val.beyond-float64-maximum',
  ],
  grants: ['grt.permission-not-granted', 'grt.grant-expired', 'res.claimed-grant-grants-nothing'],
  policy: [
    'pol.denied-class',
    'pol.approval-holds-call',
    'pol.approved-call-runs-once',
    'pol.approval-bound-to-arguments',
    'pol.rejected-approval',
    'pol.expired-approval',
    'pol.approval-names-exact-call',
    'pol.destructive-held-by-default',
    'res.claimed-approval-releases-nothing',
  ],
  'agent-visibility': ['agt.listing-filtered', 'agt.guessed-name', 'aud.refused-calls-recorded'],
  'agent-chain': ['chn.hop-not-allowed', 'chn.unknown-hop', 'chn.chain-too-long'],
  // A control, not an attack: without this guard a server's error is judged as missing output.
  'server-error-is-tool-error': ['out.error-result-keeps-its-text'],
  'withhold-uninspectable': ['wth.image-withheld', 'wth.audio-withheld', 'wth.resource-blob-withheld', 'wth.resource-text-withheld', 'wth.resource-link-withheld'],
  'result-cap': ['res.result-over-cap', 'res.split-result-over-cap', 'res.operator-cap', 'res.cap-on-code-point', 'res.structured-over-cap'],
  'description-cap': ['res.description-over-cap'],
  'result-size-bound': ['res.memory-flood'],
  'output-valid': ['out.invalid-structured-content', 'out.missing-structured-content'],
  'inspect-results': [
    'ins.injected-result',
    'ins.canary-result',
    'ins.canary-base64-result',
    'ins.canary-hex-result',
    'ins.canary-url-result',
    'ins.aws-key-result',
    'ins.private-key-result',
    'ins.github-token-result',
    'ins.zero-width-stripped',
    'ins.bidi-stripped',
    'ins.ansi-stripped',
    'ins.tag-chars-stripped',
    'ins.result-too-deep',
    'ins.result-too-many-nodes',
    'ins.result-string-too-long',
    'ins.result-aggregate-too-long',
  ],
  'inspect-arguments': ['ins.secret-in-arguments', 'ins.encoded-secret-in-arguments'],
  'inspect-descriptors': ['ins.secret-in-description', 'ins.poisoned-description-withheld', 'ins.zero-width-description', 'ins.bidi-description'],
  'effect-contract': ['eff.lying-writer', 'eff.template-value-copied-inert', 'rpt.read-back-error-escaped'],
  'broker-markers-only': ['res.forged-verified-mark-removed'],
  'server-error-escaped': ['rpt.forged-error-escaped', 'rpt.read-back-error-escaped'],
  'redact-server-env': [
    'env.server-token-kept-from-agent',
    'env.server-token-base64-kept-from-agent',
    'env.server-token-hex-kept-from-agent',
    'env.server-token-percent-kept-from-agent',
    'crd.echoed-token-kept-from-agent',
  ],
  'manifest-required': ['cfg.never-pinned'],
  'manifest-server': ['cfg.pinned-other-server'],
  'rules-pinned': ['cfg.misspelled-rule'],
  'private-operator-files': ['cfg.rules-file-writable', 'cfg.manifest-file-writable'],
  'own-process-group': ['prc.own-group', 'prc.close-kills-descendants'],
  // The group watcher kills the server too when the broker is killed, so the parent-death
  // signal is shown needed only with the watcher gone; the watcher alone is needed for the
  // server's descendants, which the parent-death signal never reaches.
  'parent-death-signal+group-dies-with-broker': ['prc.broker-death-kills-server'],
  'group-dies-with-broker': ['prc.broker-death-kills-descendants'],
  // net.scheme-not-http is left out: without the guard the HTTP client still cannot speak ftp.
  'address-guard': [
    'net.loopback-refused',
    'net.unspecified-refused',
    'net.integer-address',
    'net.hex-address',
    'net.octal-address',
    'net.short-address',
    'net.mapped-address',
    'net.localhost-name',
    'net.opt-in-other-origin',
    'net.metadata-address',
    'net.private-address',
    'net.name-resolves-private',
    'net.metadata-name',
    'net.internal-name',
    'net.localhost-subdomain',
    'net.ipv6-loopback',
    'net.ipv6-unique-local',
    'net.ipv6-nat64',
    'net.ipv6-teredo',
    'net.dns-rebinding',
  ],
  // Defence in depth: a followed redirect is dialled only where address-guard's judgement lets it,
  // and the canary is a loopback port the opt-in does not cover, so only removing both lets the
  // hop through.
  'no-redirects+address-guard': ['net.redirect-not-followed', 'net.redirect-carries-no-credential'],
  'http-body-cap': ['net.body-announced-over-cap', 'net.body-streamed-over-cap'],
  // crd.subdomain-no-token and crd.look-alike-no-token are left out: the token map is looked up
  // by exact hostname whatever the guards, so neither name ever has a token to withhold.
  'bearer-https-only': ['crd.plain-http-same-host'],
};

const scenarios = loadCatalogue();

describe('every guard of the reference broker is needed', () => {
  it.each(Object.entries(NEEDED_BY))('without %s the scenarios it protects fail', async (guards, ids) => {
    const selected = scenarios.filter((s) => ids.includes(s.id));
    expect(selected.map((s) => s.id).sort()).toEqual([...ids].sort());
    const report = await runSuite(referenceCandidate({ disabledGuards: guards.split('+') }), selected, { stepTimeoutMs: DEFAULT_STEP_TIMEOUT_MS });
    for (const result of report.cases) expect(result.outcome, `${result.id} without ${guards}`).toBe('fail');
  });

  it('names every guard the reference broker has', () => {
    const covered = new Set(Object.keys(NEEDED_BY).flatMap((key) => key.split('+')));
    expect([...GUARD_NAMES].sort()).toEqual([...covered].sort());
  });
});
