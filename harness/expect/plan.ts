import type { Scenario } from '../scenario/types.js';
import { CONFIG_FLAWS_NEUTRAL } from '../scenario/types.js';
import { checksOf, triggered } from './registry.js';
import type { Block, CheckClass, Expectation, ExpectOf, Hook } from './types.js';

export interface PlannedCheck {
  check: string;
  class: CheckClass;
  /** The adapter hook the check reads, if any. */
  hook?: Hook;
  /** Taken of every scenario's block (an `always` module): it proves no attack in particular. */
  always?: true;
}

/** Each step's block and `expect`, and the scenario's own, as the judge will see them. */
function expectations(scenario: Scenario): Array<{ block: Block; expect: ExpectOf<Block> }> {
  const found: Array<{ block: Block; expect: ExpectOf<Block> }> = [];
  for (const step of scenario.steps) {
    if ('start' in step) found.push({ block: 'start', expect: step.start.expect });
    else if ('list' in step) found.push({ block: 'list', expect: step.list.expect });
    else if ('call' in step) found.push({ block: 'call', expect: step.call.expect });
    else if ('request' in step) found.push({ block: 'request', expect: step.request.expect });
    else if ('close' in step) found.push({ block: 'close', expect: step.close?.expect ?? {} });
    else if ('kill_candidate' in step) found.push({ block: 'kill_candidate', expect: step.kill_candidate.expect });
    else if ('http' in step) found.push({ block: 'http', expect: step.http.expect });
  }
  found.push({ block: 'scenario', expect: scenario.expect ?? {} });
  return found;
}

/** Every check the scenario can report, with its class: what the loader and the runner reason over. */
export function plannedChecks(scenario: Scenario): PlannedCheck[] {
  return expectations(scenario).flatMap(({ block, expect }) =>
    (triggered(block, expect) as Expectation[]).flatMap((module) =>
      checksOf(module, expect).map((check) => ({
        check,
        class: module.checks[check]!.class,
        ...(module.hook ? { hook: module.hook } : {}),
        ...(module.always ? { always: true as const } : {}),
      })),
    ),
  );
}

/**
 * Protections that are a record: keeping an audit trail, chaining it, reporting what loaded. A
 * scenario claiming one is about that record, which only its hook shows, whatever else it checks
 * on the way (a call that must still work, a count in the ledger).
 */
const RECORD_CLAIMS: Readonly<Record<string, Hook>> = { audit: 'audit', 'audit-chain': 'audit-lines', 'load-report': 'load-report' };

/** The hooks and transports the scenario cannot run without: for its steps, and for the record it is about. */
export function requiredHooks(scenario: Scenario): Hook[] {
  const servers = Object.values(scenario.servers ?? { server: scenario.server });
  const hooks = new Set<Hook>(servers.map((server) => (server.transport === 'http' ? 'url-upstream' : 'command-upstream')));
  if (scenario.servers !== undefined) hooks.add('multi-server');
  // A server that serves nobody who has not signed in with OAuth is reached only by a broker that signs in.
  if (servers.some((server) => server.knobs?.['http_oauth'] !== undefined)) hooks.add('oauth-client');
  for (const claim of scenario.claims) if (RECORD_CLAIMS[claim] !== undefined) hooks.add(RECORD_CLAIMS[claim]);
  if (scenario.agent?.transport === 'http') hooks.add('http-agent');
  for (const step of scenario.steps) {
    if ('approve' in step) hooks.add('approve');
    if ('start' in step && step.start.flaw !== undefined && !CONFIG_FLAWS_NEUTRAL.includes(step.start.flaw)) hooks.add('config-flaws');
  }
  return [...hooks];
}

/**
 * What a scenario proves with: an attack its harm or record checks, a control its benign ones. An
 * attack's evidence is never a harm check taken of every scenario (secrets.withheld): an attack that
 * checks nothing of its own would otherwise pass on it.
 */
export const isEvidence = (scenario: Pick<Scenario, 'kind'>, planned: PlannedCheck): boolean =>
  scenario.kind === 'attack' ? planned.always !== true && (planned.class === 'harm' || planned.class === 'record') : planned.class === 'benign';

/**
 * The hooks a candidate must offer for the scenario to give a verdict: those its steps need, and
 * those its checks read when no evidence is left without them. A check whose hook is missing is
 * otherwise not taken, and the report lists it.
 */
export function hooksNeeded(scenario: Scenario, offered: ReadonlySet<Hook>): Hook[] {
  const needed = requiredHooks(scenario).filter((hook) => !offered.has(hook));
  const planned = plannedChecks(scenario).filter((planned) => isEvidence(scenario, planned));
  const takeable = planned.filter((planned) => planned.hook === undefined || offered.has(planned.hook));
  if (takeable.length === 0) needed.push(...new Set(planned.flatMap((planned) => (planned.hook ? [planned.hook] : []))));
  return [...new Set(needed)];
}
