import { beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../harness/catalogue.js';
import { referenceCandidate } from '../harness/candidates/reference.js';
import { DEFAULT_STEP_TIMEOUT_MS } from '../harness/run/execute.js';
import { defaultJobs, runPool } from '../harness/run/pool.js';
import { runSuite } from '../harness/run/suite.js';
import type { Report } from '../harness/report/summary.js';
import { CHECKS } from '../harness/expect/registry.js';
import { GUARD_NAMES } from '../src/guards/registry.js';

/**
 * Each guard of the reference broker, the scenarios that must fail once it is left out, and the
 * checks that must fail in each: at least one of them observes harm, the benign use or a record,
 * never only the words of a refusal. If a guard could be removed with every scenario still
 * passing, or with only a refusal's words changing, either the guard is dead code or the
 * catalogue has a hole; both are defects. A pair (`a+b`) is shown needed together where one
 * backs the other up; the comment says why, and which scenario isolates each member.
 */
/**
 * The scenarios of a file that runs over both schemes (`variants: { scheme: [http, https] }`,
 * docs/network.md), each with its https case failing on the same checks.
 */
function withHttpsCases(expected: Record<string, string[]>): Record<string, string[]> {
  return { ...expected, ...Object.fromEntries(Object.entries(expected).map(([id, checks]) => [`${id}.https`, checks])) };
}

const NEEDED_BY: Record<string, Record<string, string[]>> = {
  'listing-bounds': {
    'lst.endless-pages': ['ledger.list_requests_per_launch_max'],
    'lst.repeating-cursor': ['ledger.list_requests_per_launch_max'],
    'lst.tool-flood': ['start.refused'],
  },
  'listing-unique': {
    'lst.duplicate-across-pages': ['start.refused'],
    'lst.duplicate-same-page': ['start.refused'],
  },
  classified: {
    'cls.unclassified-tool-withheld': ['list.excludes', 'call.server_received', 'load_report.sections'],
  },
  pinned: {
    'pin.unpinned-tool': ['load_report.sections'],
  },
  'still-offered': {
    'pin.dropped-tool': ['list.excludes', 'call.server_received', 'load_report.sections'],
  },
  // The reworded description also asks for ~/.ssh/id_rsa, which descriptor inspection withholds
  // on its own: only removing both protections lets the rug pull through.
  'description-pin+inspect-descriptors': {
    'pin.description-reworded': ['list.excludes', 'call.server_received', 'load_report.sections'],
    'pin.drift-stays-refused': ['list.excludes', 'call.server_received'],
  },
  'execution-pin': {
    'pin.execution-changed': ['list.excludes', 'call.server_received', 'load_report.sections'],
  },
  'schema-pin': {
    'pin.float-drift': ['list.excludes', 'call.server_received'],
    'pin.schema-loosened': ['list.excludes', 'call.server_received'],
  },
  // Rediscovery decides as Load does, so the pin guard also finds the drift during a session.
  'output-schema-pin': {
    'drf.output-schema-loosened': ['call.server_received', 'ledger.calls'],
    'pin.output-schema-changed': ['list.excludes', 'call.server_received', 'load_report.sections'],
  },
  // A server that stops reading: calls past the bound are refused at once instead of waiting for
  // their timeout behind what the server never read.
  'server-queue-bound': {
    'flt.server-stops-reading': ['call.within_ms'],
  },
  // 20,000 notices that the tools changed: one listing each. The count is decisive; whether the
  // next call also waits past 10 s for them depends on the machine's speed.
  'rediscovery-bounded': {
    'flt.list-changed-flood': ['ledger.list_requests_per_launch_max'],
  },
  'drift-closes-session': {
    'drf.quarantine-closes-session': ['call.server_received', 'call.servers_alive', 'ledger.calls'],
  },
  'hint-consistency': {
    'hnt.destructive-hint-refuses': ['list.excludes', 'call.server_received', 'load_report.sections'],
    'hnt.live-hint-contradicts': ['list.excludes', 'call.server_received'],
    'hnt.read-only-class-without-hint': ['list.excludes', 'call.server_received'],
  },
  'operator-annotations': {
    'cls.operator-class-shown': ['list.effective_hints'],
    'cls.server-idempotent-never-shown': ['list.effective_hints'],
    'hnt.readonly-hint-never-relaxes': ['list.effective_hints'],
  },
  'operator-description': {
    'dsc.override-replaces-poisoned': ['list.includes', 'list.descriptions'],
  },
  'icons-pin': {
    'ico.changed-at-run-dropped': ['list.listing_excludes'],
  },
  'icons-safe': {
    'ico.cross-origin-dropped': ['list.listing_excludes'],
    'ico.file-dropped': ['list.listing_excludes'],
    'ico.javascript-dropped': ['list.listing_excludes'],
    'ico.many-bounded': ['list.listing_excludes'],
    'ico.oversized-dropped': ['list.listing_excludes'],
    'ico.plain-http-dropped': ['list.listing_excludes'],
    'ico.prompt-svg-script-dropped': ['request.answer_excludes'],
    'ico.resource-javascript-dropped': ['request.answer_excludes'],
    'ico.svg-script-dropped': ['list.listing_excludes'],
    'ico.type-mismatch-dropped': ['list.listing_excludes'],
    'ico.ws-dropped': ['list.listing_excludes'],
  },
  'registered-calls-only': {
    'cls.unclassified-tool-withheld': ['call.server_received'],
    'pin.dropped-tool': ['call.server_received'],
  },
  'nothing-registered': {
    'cls.nothing-registered-fails-closed': ['start.refused', 'start.servers_alive'],
  },
  'object-schema': {
    'sch.not-object': ['list.excludes'],
  },
  'schema-compiles': {
    'sch.uncompilable': ['list.excludes', 'call.server_received'],
  },
  'self-contained': {
    'sch.id-url': ['list.excludes', 'call.server_received'],
    'sch.ref-to-file': ['list.excludes', 'call.server_received'],
    'sch.ref-in-default': ['list.excludes', 'call.server_received'],
    'sch.ref-in-examples': ['list.excludes', 'call.server_received'],
    'sch.ref-to-url': ['list.excludes', 'call.server_received'],
    'sch.unknown-dialect': ['list.excludes', 'call.server_received'],
  },
  // A reference to a value that is no schema compiles (as the empty schema), and so does a dynamic
  // reference to itself (its validator overflows the stack at the call): only this guard sees them.
  'references-resolve': {
    'sch.ref-not-schema': ['list.excludes', 'call.server_received'],
    'sch.ref-dynamic-self': ['list.excludes'],
  },
  // Defence in depth: a reference to nothing, or a cycle of them, the compiler refuses too, so only
  // removing both lets these schemas through.
  'references-resolve+schema-compiles': {
    'sch.ref-missing': ['list.excludes', 'call.server_received'],
    'sch.ref-cycle': ['list.excludes', 'call.server_received'],
    'sch.nested-ref-missing': ['list.excludes', 'call.server_received'],
  },
  // Defence in depth: what self-contained misses, the compiler still refuses, so only removing
  // both lets these schemas through.
  'self-contained+schema-compiles': {
    'sch.draft04-id': ['list.excludes', 'call.server_received'],
    'sch.dynamic-ref-url': ['list.excludes', 'call.server_received'],
    'sch.ref-relative': ['list.excludes', 'call.server_received'],
  },
  'hidden-names-sound': {
    'par.hidden-name-in-anyof': ['list.excludes', 'call.server_received'],
    'par.hidden-name-in-defs': ['list.excludes', 'call.server_received'],
    'par.hidden-name-in-dependent-required': ['list.excludes'],
    'par.hidden-name-in-if-then': ['list.excludes'],
    'par.hidden-name-in-pattern-properties': ['list.excludes', 'call.server_received'],
    'par.misspelled-hidden-name': ['list.excludes', 'call.server_received'],
  },
  'hidden-params-refused': {
    'par.denied-parameter-hidden': ['call.server_received'],
    'par.fixed-parameter-supplied': ['call.server_received'],
    'par.denied-parameter-respelt': ['call.server_received'],
  },
  'name-rules': {
    'nam.rename-breaks-rules': ['list.excludes'],
    'nam.server-name-breaks-rules': ['list.excludes', 'call.server_received'],
  },
  'name-unique': {
    'nam.rename-collision': ['list.count', 'list.unique_names', 'call.answered', 'call.server_reached'],
  },
  'input-valid': {
    'val.beyond-float64-maximum': ['call.server_received'],
    'val.broken-additional-properties': ['call.server_received'],
    'val.broken-const': ['call.server_received'],
    'val.broken-dependent-required': ['call.server_received'],
    'val.broken-enum': ['call.server_received'],
    'val.broken-exclusive-maximum': ['call.server_received'],
    'val.broken-exclusive-minimum': ['call.server_received'],
    'val.broken-max-items': ['call.server_received'],
    'val.broken-max-length': ['call.server_received'],
    'val.broken-maximum': ['call.server_received'],
    'val.broken-min-items': ['call.server_received'],
    'val.broken-min-length': ['call.server_received'],
    'val.broken-minimum': ['call.server_received'],
    'val.broken-multiple-of': ['call.server_received'],
    'val.broken-not': ['call.server_received'],
    'val.broken-pattern': ['call.server_received'],
    'val.broken-required': ['call.server_received'],
    'val.broken-type': ['call.server_received'],
    'val.broken-unique-items': ['call.server_received'],
  },
  grants: {
    'grt.grant-expired': ['call.server_received'],
    'grt.permission-not-granted': ['call.server_received'],
    'res.claimed-grant-grants-nothing': ['call.server_received', 'ledger.calls'],
  },
  policy: {
    'pol.approval-bound-to-arguments': ['call.server_received'],
    'pol.approval-holds-call': ['call.server_received'],
    'pol.approval-names-exact-call': ['call.server_received'],
    'pol.approved-call-runs-once': ['call.server_received', 'audit.record'],
    'pol.denied-class': ['call.server_received'],
    'pol.destructive-held-by-default': ['call.server_received'],
    'pol.expired-approval': ['call.server_received'],
    'pol.rejected-approval': ['call.server_received', 'audit.record'],
    'res.claimed-approval-releases-nothing': ['call.server_received', 'ledger.calls'],
  },
  'agent-visibility': {
    'agt.guessed-name': ['call.server_received', 'call.answers_like_unknown'],
    'agt.listing-filtered': ['list.excludes'],
    'aud.refused-calls-recorded': ['call.server_received', 'audit.record'],
  },
  'agent-chain': {
    'chn.chain-too-long': ['call.server_received'],
    'chn.hop-not-allowed': ['call.server_received'],
    'chn.unknown-hop': ['call.server_received'],
  },
  // A control, not an attack: without this guard a server's error is judged as missing output.
  'server-error-is-tool-error': {
    'out.error-result-keeps-its-text': ['call.text_includes'],
  },
  'withhold-uninspectable': {
    'wth.audio-withheld': ['call.text_includes', 'call.answer_excludes', 'call.content_types_absent'],
    'wth.image-withheld': ['call.text_includes', 'call.answer_excludes', 'call.content_types_absent'],
    'wth.resource-blob-withheld': ['call.text_includes', 'call.answer_excludes', 'call.content_types_absent'],
    'wth.resource-link-withheld': ['call.text_includes', 'call.content_types_absent'],
    'wth.resource-text-withheld': ['call.text_includes', 'call.answer_excludes', 'call.content_types_absent'],
  },
  'result-cap': {
    'res.cap-on-code-point': ['call.text_max_chars'],
    'res.operator-cap': ['call.text_max_chars'],
    'res.result-over-cap': ['call.text_max_chars'],
    'res.split-result-over-cap': ['call.text_max_chars'],
    'res.structured-over-cap': ['call.answer_excludes', 'call.structured.absent'],
  },
  'description-cap': {
    'res.description-over-cap': ['list.description_max_chars'],
  },
  'result-size-bound': {
    'res.memory-flood': ['call.memory_growth_max_mib'],
  },
  'output-valid': {
    'out.invalid-structured-content': ['call.answer_excludes'],
    'out.missing-structured-content': ['call.answer_excludes'],
  },
  'inspect-results': {
    'ins.result-aggregate-too-long': ['call.answer_excludes'],
    'ins.result-too-deep': ['call.answer_excludes'],
    'ins.result-too-many-nodes': ['call.answer_excludes'],
    'ins.result-string-too-long': ['call.answer_excludes'],
    'ins.ansi-stripped': ['call.answer_excludes'],
    'ins.bidi-stripped': ['call.answer_excludes'],
    'ins.canary-base64-result': ['call.answer_excludes'],
    'ins.canary-hex-result': ['call.answer_excludes'],
    'ins.canary-url-result': ['call.answer_excludes'],
    'ins.canary-result': ['call.answer_excludes'],
    'ins.injected-result': ['call.answer_excludes'],
    'ins.aws-key-result': ['call.answer_excludes'],
    'ins.github-token-result': ['call.answer_excludes'],
    'ins.private-key-result': ['call.answer_excludes'],
    'ins.tag-chars-stripped': ['call.answer_excludes'],
    'ins.zero-width-stripped': ['call.answer_excludes'],
    // The outbound stage inspects every run-time message with the same step: an error's message
    // and data, characters known only by their Unicode properties, a bound over the whole message.
    'ins.canary-in-error-data': ['call.answer_excludes'],
    'ins.canary-in-error-message': ['call.answer_excludes'],
    'ins.format-chars-stripped': ['call.answer_excludes'],
    'ins.injection-in-error-message': ['call.answer_excludes'],
    'ins.result-fields-over-whole-bound': ['call.answer_excludes'],
  },
  'inspect-arguments': {
    'ins.encoded-secret-in-arguments': ['call.server_received'],
    'ins.secret-in-arguments': ['call.server_received'],
  },
  'inspect-descriptors': {
    'ins.bidi-description': ['list.description_excludes'],
    'ins.poisoned-description-withheld': ['list.excludes', 'call.server_received'],
    'ins.secret-in-description': ['list.excludes', 'call.server_received'],
    'ins.zero-width-description': ['list.description_excludes'],
    'ins.injection-in-schema-prose': ['list.listing_excludes'],
    'ins.invisible-in-schema-enum': ['list.listing_excludes'],
    'ins.zero-width-in-schema-prose': ['list.listing_excludes'],
    // Terminal sequences in a tool's descriptor are removed by the same inspection step, and an
    // injection in any string of a schema (keys and values that are not prose) withholds the tool.
    'ins.ansi-concealed-description': ['list.listing_excludes'],
    'ins.ansi-overwrite-description': ['list.listing_excludes'],
    'ins.ansi-hyperlink-description': ['list.listing_excludes'],
    'ins.ansi-clipboard-description': ['list.listing_excludes'],
    'ins.ansi-in-title': ['list.listing_excludes'],
    'ins.ansi-in-schema-prose': ['list.listing_excludes'],
    'ins.injection-in-schema-default': ['list.listing_excludes'],
    'ins.injection-in-schema-examples': ['list.listing_excludes'],
    'ins.injection-in-schema-const': ['list.listing_excludes'],
    'ins.injection-in-schema-enum': ['list.listing_excludes'],
    'ins.injection-in-schema-property-name': ['list.listing_excludes'],
    'ins.injection-in-schema-required': ['list.listing_excludes'],
    'ins.injection-in-output-schema-examples': ['list.listing_excludes'],
    'ins.preference-description-withheld': ['list.description_excludes'],
    'ins.preference-as-user-withheld': ['list.description_excludes'],
    'ins.preference-with-denied-parameter': ['list.description_excludes'],
  },
  // The server's annotations never reach the agent (operator-annotations), and inspection strips
  // terminal sequences from what would: only removing both lets a coloured annotations title
  // through. cls.operator-class-shown isolates the first, ins.ansi-in-title the second.
  'operator-annotations+inspect-descriptors': {
    'ins.ansi-in-annotation-title': ['list.listing_excludes'],
  },
  'effect-contract': {
    'eff.lying-writer': ['call.answer_excludes', 'ledger.calls'],
    'eff.template-value-copied-inert': ['call.meta_includes', 'ledger.calls', 'ledger.called'],
    'rpt.read-back-error-escaped': ['call.text_includes', 'call.answer_excludes', 'ledger.calls'],
  },
  'joined-descriptions': {
    'ins.split-payload-withheld': ['list.description_excludes'],
  },
  'source-to-sink': {
    'pol.private-read-then-outside': ['call.server_received', 'ledger.calls'],
  },
  'broker-markers-only': {
    'res.forged-verified-mark-removed': ['call.meta_excludes'],
  },
  'server-error-escaped': {
    'rpt.forged-error-escaped': ['call.text_escaped'],
    'rpt.read-back-error-escaped': ['call.text_escaped'],
  },
  'redact-server-env': {
    'crd.echoed-token-kept-from-agent': ['call.answer_excludes'],
    'env.server-token-base64-kept-from-agent': ['call.answer_excludes'],
    'env.server-token-hex-kept-from-agent': ['call.answer_excludes'],
    'env.server-token-kept-from-agent': ['call.answer_excludes'],
    'env.server-token-percent-kept-from-agent': ['call.answer_excludes'],
  },
  'manifest-required': {
    'cfg.never-pinned': ['start.no_launch'],
  },
  'manifest-server': {
    'cfg.pinned-other-server': ['start.refused'],
  },
  'rules-pinned': {
    'cfg.misspelled-rule': ['start.refused'],
  },
  'private-operator-files': {
    'cfg.manifest-file-writable': ['start.refused'],
    'cfg.rules-file-writable': ['start.refused'],
  },
  'own-process-group': {
    'prc.close-kills-descendants': ['close.servers_alive'],
    'prc.own-group': ['start.server_group'],
  },
  // The group watcher kills the server too when the broker is killed, and the parent-death signal
  // stops the server when the watcher is gone: only removing both lets it outlive the broker.
  // prc.broker-death-kills-watchdog-killer isolates parent-death-signal (its server kills the
  // watcher first); prc.broker-death-kills-descendants isolates group-dies-with-broker.
  'parent-death-signal+group-dies-with-broker': {
    'prc.broker-death-kills-server': ['kill_candidate.servers_alive'],
  },
  'group-dies-with-broker': {
    'prc.broker-death-kills-descendants': ['kill_candidate.servers_alive'],
  },
  // net.scheme-not-http is left out: without the guard the HTTP client still cannot speak ftp.
  // Each case also over https, where no rule on the scheme could stand in for the guard.
  'address-guard': withHttpsCases({
    'net.dns-rebinding': ['ledger.connections_to'],
    'net.hex-address': ['start.refused'],
    'net.integer-address': ['start.refused'],
    'net.internal-name': ['start.refused'],
    'net.ipv6-loopback': ['start.refused'],
    'net.ipv6-nat64': ['start.refused'],
    'net.ipv6-teredo': ['start.refused'],
    'net.ipv6-unique-local': ['start.refused'],
    'net.localhost-name': ['start.refused'],
    'net.localhost-subdomain': ['start.refused'],
    'net.loopback-refused': ['start.refused'],
    'net.mapped-address': ['start.refused'],
    'net.metadata-address': ['start.refused'],
    'net.metadata-name': ['start.refused'],
    'net.name-resolves-private': ['start.refused'],
    'net.octal-address': ['start.refused'],
    'net.opt-in-other-origin': ['start.refused'],
    'net.private-address': ['start.refused'],
    'net.short-address': ['start.refused'],
    'net.unspecified-refused': ['start.refused'],
  }),
  // Defence in depth: a followed redirect is dialled only where address-guard's judgement lets it,
  // and the canary is a loopback port the opt-in does not cover, so only removing both lets the
  // hop through. net.redirect-to-public-not-followed (a hop to an address the guard allows)
  // isolates no-redirects.
  'no-redirects+address-guard': withHttpsCases({
    'net.redirect-carries-no-credential': ['canary.requests'],
    'net.redirect-not-followed': ['canary.requests'],
  }),
  // Without the cap the body is still refused, by the JSON reader's bounds, but only after the
  // broker held all 17 MiB of it: its memory growth is what the cap prevents.
  'http-body-cap': {
    'net.body-announced-over-cap': ['call.memory_growth_max_mib'],
    'net.body-streamed-over-cap': ['call.memory_growth_max_mib'],
  },
  // crd.subdomain-no-token and crd.look-alike-no-token are left out: the token map is looked up
  // by exact hostname whatever the guards, so neither name ever has a token to withhold.
  'bearer-https-only': {
    'crd.plain-http-same-host': ['server_headers.absent'],
  },
  // drift-closes-session already keeps every call from a session whose tools drifted, so
  // without quarantine alone a drifted tool is still refused, in other words (server_unavailable:
  // a contract check). Only removing both lets the calls through; drf.quarantine-closes-session
  // isolates drift-closes-session.
  'drift-quarantine+drift-closes-session': {
    'drf.description-reworded': ['call.server_received', 'ledger.calls'],
    'drf.output-schema-loosened': ['call.server_received', 'ledger.calls'],
    'drf.quarantine-closes-session': ['call.server_received', 'ledger.calls'],
    'drf.schema-loosened': ['call.server_received', 'ledger.calls'],
    'drf.tool-withdrawn': ['call.server_received', 'ledger.calls'],
  },
  // A widened description and a plain title are nothing descriptor inspection withholds: only the pin sees them changed.
  'description-pin': {
    'pin.description-widened': ['list.excludes', 'call.server_received', 'load_report.sections'],
    'pin.title-changed': ['list.excludes', 'call.server_received', 'load_report.sections'],
  },
  'no-redirects': withHttpsCases({
    'net.redirect-to-public-not-followed': ['ledger.connections_to', 'call.server_received'],
  }),
  // Without it both servers' tools keep the name, and the session's map gives it to the later.
  'server-names-unique': {
    'msv.name-taken-by-prefix': ['list.excludes', 'call.servers_received', 'servers.ledger.calls'],
    'msv.name-taken-directly': ['list.excludes', 'call.servers_received', 'servers.ledger.calls'],
  },
  'foreign-mentions': {
    'msv.description-steers-to-other': ['list.description_excludes'],
    'msv.result-steers-to-other': ['call.answer_excludes'],
  },
  // Without it the front door binds every interface, which the harness reads from /proc only.
  'front-door-loopback': {
    'fdr.binds-loopback': ['start.listens_loopback'],
  },
  'origin-check': {
    'fdr.hostile-origin-refused': ['http.unanswered', 'http.server_received'],
    'fdr.other-local-origin-refused': ['http.unanswered', 'http.server_received'],
  },
  'host-check': {
    'fdr.foreign-host-refused': ['http.unanswered', 'http.server_received'],
  },
  // Without it the operator's credential is ignored: a process without it opens a session and calls.
  'front-door-credential': {
    'fdr.uncredentialed-call-refused': ['http.unanswered', 'http.server_received'],
  },
  'session-binding': {
    'fdr.other-session-id-refused': ['http.unanswered', 'http.server_received', 'http.received_excludes'],
    'fdr.delete-other-session-refused': ['http.agent_session_alive'],
  },
  // Sequential ids: the guessed one is the agent's, and with no credential on either side the
  // binding cannot tell the two clients apart.
  'session-ids-unguessable': {
    'fdr.guessed-session-id-refused': ['http.unanswered', 'http.server_received'],
  },
  // Without it a server's log line reaches every session: the other client's query with it.
  'log-lines-attributed': {
    'fdr.concurrent-calls-isolated': ['http.own_only'],
  },
  'sampling-allowed': {
    'smp.refused-by-default': ['call.agent_requests_max', 'call.server_refused'],
  },
  'sampling-bounds': {
    'smp.huge-max-tokens': ['call.agent_requests_max', 'call.server_refused'],
    'smp.request-flood': ['call.agent_requests_max'],
  },
  'sampling-tools-declared': {
    'smp.tools-undeclared': ['call.agent_requests_max', 'call.server_refused'],
    'smp.tools-not-allowed': ['call.agent_requests_max', 'call.server_refused'],
  },
  'sampling-no-context': {
    'smp.context-all-servers': ['call.agent_requests_no_context'],
    'smp.context-this-server': ['call.agent_requests_no_context'],
  },
  'request-text-inspected': {
    'smp.injected-message': ['call.agent_requests_max', 'call.answer_excludes'],
    'smp.persistent-system-prompt': ['call.agent_requests_max', 'call.server_refused'],
    'smp.persistent-message': ['call.agent_requests_max', 'call.server_refused'],
  },
  'elicitation-allowed': {
    'eli.refused-by-default': ['call.agent_requests_max', 'call.server_refused'],
  },
  'elicitation-mode-declared': {
    'eli.url-undeclared': ['call.agent_requests_max', 'call.server_refused'],
  },
  'elicitation-url-whole': {
    'eli.url-reordered': ['call.agent_requests_max', 'call.server_refused'],
  },
  'elicitation-host-distinct': {
    'eli.url-lookalike-host': ['call.agent_requests_max', 'call.server_refused'],
    'eli.url-punycode-host': ['call.agent_requests_max', 'call.server_refused'],
  },
  'elicitation-no-credentials': {
    'eli.credential-described': ['call.agent_requests_max', 'call.server_refused'],
    'eli.credential-form': ['call.agent_requests_max', 'call.server_refused'],
  },
  'elicitation-bounds': {
    'eli.oversized-form': ['call.agent_requests_max', 'call.server_refused'],
  },
  'roots-permitted': {
    'rts.other-roots-withheld': ['call.roots_exclude'],
    'rts.none-by-default': ['call.roots_exclude'],
    'rts.sibling-root-withheld': ['call.roots_exclude'],
  },
  'notice-redacted': {
    'ntf.log-canary': ['call.answer_excludes'],
    'ntf.log-server-env': ['call.answer_excludes'],
  },
  // Inspection normalises away the escapes and the override on its own; the forged line break
  // is what only escaping catches.
  'notice-escaped': {
    'ntf.log-control-characters': ['call.notifications_escaped'],
  },
  'log-flood-bound': {
    'ntf.log-flood': ['call.notifications_max'],
  },
  'progress-own-token': {
    'ntf.progress-forged-token': ['call.progress_own_only'],
  },
  'list-changed-bound': {
    'ntf.resources-changed-flood': ['call.notifications_max'],
    'ntf.prompts-changed-flood': ['call.notifications_max'],
    // In 2026-07-28 the notices reach the agent on its subscriptions/listen stream, bounded the same.
    'ntf.resources-changed-flood.2026-07-28': ['call.notifications_max'],
    'ntf.prompts-changed-flood.2026-07-28': ['call.notifications_max'],
  },
  // The server kills the group watcher first, so only the kernel's parent-death signal is left.
  'parent-death-signal': {
    'prc.broker-death-kills-watchdog-killer': ['kill_candidate.servers_alive'],
  },
  // Resources, prompts and completion (issue 10).
  'feature-pin': {
    'prm.description-widened-at-run': ['request.excludes', 'request.server_received'],
    'rsc.description-widened-at-run': ['request.excludes', 'request.server_received'],
  },
  'resource-uri-allowed': {
    'cmp.unoffered-template-ref': ['request.server_received'],
    'rsc.hidden-resource-listed': ['request.excludes'],
    'rsc.read-encoded-traversal': ['request.server_received'],
    'rsc.sibling-prefix-climb': ['request.server_received'],
    'rsc.sibling-prefix-encoded': ['request.server_received'],
    'rsc.sibling-prefix-listed': ['request.excludes', 'request.server_received'],
    'rsc.template-backtracking': ['request.server_received'],
    'rsc.read-outside-prefix': ['request.server_received'],
    'rsc.subscribe-outside': ['request.server_received'],
    'rsc.template-expansion-escapes': ['request.server_received'],
  },
  'prompt-allowed': {
    'cmp.hidden-prompt-ref': ['request.server_received'],
    'prm.hidden-prompt-get': ['request.server_received'],
    'prm.hidden-prompt-listed': ['request.excludes'],
  },
  'inspect-feature-descriptors': {
    'prm.description-poisoned': ['request.excludes', 'request.server_received'],
    'rsc.description-poisoned': ['request.description_excludes'],
    'rsc.template-description-poisoned': ['request.excludes'],
    'ins.ansi-in-prompt-description': ['request.answer_excludes'],
    'ins.ansi-in-resource-description': ['request.answer_excludes'],
    'ins.ansi-in-template-description': ['request.answer_excludes'],
  },
  'prompt-arguments-valid': {
    'cmp.undeclared-argument': ['request.server_received'],
    'prm.missing-required-argument': ['request.server_received'],
    'prm.unknown-argument': ['request.server_received'],
  },
  'withhold-feature-blobs': {
    'rsc.contents-blob': ['request.answer_excludes'],
  },
  'inspect-feature-contents': {
    'prm.messages-canary': ['request.answer_excludes'],
    'prm.messages-injection': ['request.answer_excludes'],
    'rsc.contents-canary': ['request.answer_excludes'],
    'rsc.contents-injection': ['request.answer_excludes'],
    'rsc.contents-zero-width': ['request.answer_excludes'],
  },
  'feature-content-cap': {
    'rsc.contents-oversized': ['request.text_max_chars'],
  },
  'completion-bounded': {
    'cmp.oversized': ['request.answer_max_bytes'],
  },
  'completion-no-hidden-names': {
    'cmp.leaks-hidden-names': ['request.answer_excludes'],
  },
  // Without it the server's state is forwarded as the agent sends it; the canary that the naive
  // server then answers with is withheld by inspect-results, so the harm seen is the call carried out.
  // The broker answers server/discover itself, from what it vetted: without this guard it asks the
  // server again, and the server's drifted answer reaches the agent.
  'discover-pinned': {
    'dsv.instructions-drift-not-shown.2026-07-28': ['request.answer_excludes'],
    'dsv.capability-added-not-shown.2026-07-28': ['request.answer_excludes'],
    'dsv.server-info-changed-not-shown.2026-07-28': ['request.answer_excludes'],
  },
  // Each invalid x-mcp-header form alone; xmh.crlf-name-dropped is not among them, since the
  // reference refuses a tool whose schema carries CR/LF on other grounds too.
  'param-headers': Object.fromEntries(
    ['non-token', 'duplicate', 'number', 'under-items', 'under-oneof', 'through-ref'].map((form) => [`xmh.${form}-dropped.2026-07-28`, ['list.excludes', 'call.server_received']]),
  ),
  'request-state-bound': {
    'mrt.forged-state-refused.2026-07-28': ['call.server_received'],
    'mrt.replayed-state-refused.2026-07-28': ['call.server_received'],
    'mrt.transplanted-state-refused.2026-07-28': ['call.server_received'],
  },
  // Without it the hints the server wrote on its listing (its first page, read at Load), a read,
  // a call's result or a retry's reach the agent as written.
  'cache-hints-private': {
    'cch.filtered-listing-public.2026-07-28': ['cache_hints.scope', 'cache_hints.ttl'],
    'cch.listing-fresh-past-drift.2026-07-28': ['cache_hints.ttl'],
    'cch.read-marked-public.2026-07-28': ['cache_hints.scope', 'cache_hints.ttl'],
    'cch.round-trip-hinted.2026-07-28': ['cache_hints.scope', 'cache_hints.ttl'],
    'cch.scope-canary.2026-07-28': ['cache_hints.scope'],
    'cch.ttl-past-float.2026-07-28': ['cache_hints.ttl'],
  },
  // Without it an agent's task methods go to the server with the task id as the agent wrote it, and
  // the naive server answers another user's task-0, and cancels it, for anyone; the canary of the
  // task-0 it answers is withheld by inspect-results, so the harm seen is the request reaching it.
  'task-bound': {
    'tsk.guessed-task-refused.2026-07-28': ['request.server_received'],
    'tsk.foreign-cancel-refused.2026-07-28': ['request.server_received'],
  },
};

const scenarios = loadCatalogue();

/** As in conformance.test.ts: one worker per core, each running one guard's scenarios. */
const JOBS = defaultJobs();

describe('every guard of the reference broker is needed', () => {
  // Every guard's scenarios run at once on a pool, each guard left out of its own broker; the
  // tests below judge each guard's report.
  const reports = new Map<string, Report>();
  beforeAll(async () => {
    const entries = Object.entries(NEEDED_BY);
    const runs = await runPool(entries, JOBS, ([guards, expected]) =>
      runSuite(referenceCandidate({ disabledGuards: guards.split('+') }), scenarios.filter((s) => s.id in expected), { stepTimeoutMs: DEFAULT_STEP_TIMEOUT_MS }),
    );
    entries.forEach(([guards], index) => reports.set(guards, runs[index]!));
  }, 900_000);

  it.each(Object.entries(NEEDED_BY))('without %s the scenarios it protects fail on the named checks', (guards, expected) => {
    const report = reports.get(guards)!;
    expect(report.cases.map((c) => c.id).sort()).toEqual(Object.keys(expected).sort());
    for (const result of report.cases) {
      const failed = new Set(result.findings.map((finding) => finding.check));
      expect(result.outcome, `${result.id} without ${guards}`).toBe('fail');
      expect([...failed], `${result.id} without ${guards}`).toEqual(expect.arrayContaining(expected[result.id]!));
    }
  });

  it('names, for each scenario, at least one check that is not about the words of a refusal', () => {
    for (const [guards, expected] of Object.entries(NEEDED_BY)) {
      for (const [id, checks] of Object.entries(expected)) {
        expect(checks.map((check) => CHECKS.get(check)?.class).some((cls) => cls === 'harm' || cls === 'benign' || cls === 'record'), `${guards}: ${id}`).toBe(true);
      }
    }
  });

  it('names every guard the reference broker has, and shows each one needed on its own or in a pair', () => {
    const covered = new Set(Object.keys(NEEDED_BY).flatMap((key) => key.split('+')));
    expect([...GUARD_NAMES].sort()).toEqual([...covered].sort());
  });
});
