import { describe, expect, it } from 'vitest';
import { BASE_REVISION } from '../../harness/agent/revisions.js';
import { loadCatalogue } from '../../harness/catalogue.js';
import type { CallStep, HttpStep, RequestStep, Scenario } from '../../harness/scenario/types.js';

/**
 * A control earns its attack's verdict only if a broker that refuses everything fails it: so every
 * control must get a result from some call, and from a call to the tools its attacks call. A
 * request about resources, prompts or completion counts by its method.
 */

/**
 * Controls whose benign use is not a result. Each still expects the call dispatched, which a
 * broker refusing it fails.
 */
const CONTROLS_WITHOUT_RESULT: Record<string, string> = {
  // The server answers every search_notes call with a JSON-RPC error; the benign counterpart of a
  // forged error is a plain one, dispatched (server_received: 1) and delivered in its own words.
  'rpt.plain-error-kept': 'the benign path is a plain server error, dispatched and delivered',
  // The same for an error with plain data: the counterpart of an error whose message or data
  // carries a harm.
  'ins.error-data-kept': 'the benign path is a plain server error with plain data, dispatched and delivered',
  // The server serves nobody who has not signed in: the benign path is its sign-in page opened
  // for the user, before any session exists (crd.oauth-*).
  'crd.oauth-sign-in-opened': 'the benign path is the sign-in page opened, before any session',
};

/** Attacks whose calls have no benign counterpart under the same name. */
const ATTACKS_WITHOUT_NAMED_COUNTERPART: Record<string, string> = {
  // The only call names a tool that exists nowhere, built to forge an audit line; its control
  // calls the tools the operator configured.
  'aud.forged-record-escaped': 'calls a forged name that no server lists',
  // The only call is to export_all_notes, which nobody reviewed, so no control can offer it; the
  // control calls a pinned tool of the same server.
  'pin.unpinned-tool': 'calls a tool no review pinned',
  // The only call uses the unlawful name the server lists write_note under; the control calls the
  // same tool listed under its lawful name, write_note.
  'nam.server-name-breaks-rules': 'calls a name outside the name rules, which no control can offer',
  // The server answers every search_notes call with an error: its control expects a plain error,
  // dispatched, rather than a result (see CONTROLS_WITHOUT_RESULT).
  'rpt.forged-error-escaped': 'the benign counterpart of a server error is a plain error',
  'ins.canary-in-error-data': 'the benign counterpart of a server error is a plain error',
  'ins.canary-in-error-message': 'the benign counterpart of a server error is a plain error',
  'ins.injection-in-error-message': 'the benign counterpart of a server error is a plain error',
};

const calls = (scenario: Scenario): CallStep[] => scenario.steps.flatMap((step) => ('call' in step ? [step.call] : []));

/** The agent-visible name and, where it differs, the server's name for the tool. */
const namesOf = (call: CallStep): string[] => [call.tool, ...(call.server_tool === undefined ? [] : [call.server_tool])];

const httpCalls = (scenario: Scenario): HttpStep[] => scenario.steps.flatMap((step) => ('http' in step && step.http.request === 'call' ? [step.http] : []));

const requests = (scenario: Scenario): RequestStep[] => scenario.steps.flatMap((step) => ('request' in step ? [step.request] : []));

/** Every name a control gets a result from: tools called, and methods requested. */
const answeredNames = (scenario: Scenario): Set<string> =>
  new Set([
    ...calls(scenario).filter((call) => call.expect.agent === 'result').flatMap(namesOf),
    ...requests(scenario).filter((request) => request.expect.agent === 'result').map((request) => request.method),
    // A together call's `together_received` expects each client's call answered with a result.
    ...httpCalls(scenario).filter((call) => (call.expect.answered === true || call.expect.together_received !== undefined) && call.tool !== undefined).map((call) => call.tool!),
  ]);

describe('the controls of the shipped catalogue', () => {
  // A file's cases of every revision have the same steps: its 2025-11-25 cases speak for them.
  const scenarios = loadCatalogue().filter((scenario) => (scenario.revision ?? BASE_REVISION) === BASE_REVISION);
  const byId = new Map(scenarios.map((scenario) => [scenario.id, scenario]));
  const controls = scenarios.filter((scenario) => scenario.kind === 'control');
  const attacks = scenarios.filter((scenario) => scenario.kind === 'attack');
  const controlOf = (attack: Scenario): Scenario => {
    const control = byId.get(attack.control ?? '');
    if (!control) throw new Error(`${attack.id}: control ${attack.control} is not in the catalogue`);
    return control;
  };

  it('has every control get a result from at least one call', () => {
    for (const control of controls) {
      if (control.id in CONTROLS_WITHOUT_RESULT) continue;
      expect(answeredNames(control).size, control.id).toBeGreaterThan(0);
    }
  });

  it('has every attack that calls a tool paired with a control that gets a result from one of the same tools', () => {
    for (const attack of attacks) {
      const called = [...calls(attack).flatMap(namesOf), ...requests(attack).map((request) => request.method)];
      if (called.length === 0 || attack.id in ATTACKS_WITHOUT_NAMED_COUNTERPART) continue;
      const answered = answeredNames(controlOf(attack));
      expect(
        called.filter((name) => answered.has(name)),
        `${attack.id} calls ${called.join(', ')}; ${attack.control} gets results from ${[...answered].join(', ') || 'nothing'}`,
      ).not.toEqual([]);
    }
  });

  it('has the control cover every configured tool an attack expects refused or failed', () => {
    // A broker that refuses this tool outright holds the attack; only the control's result from it
    // shows the refusal was the attack's doing.
    for (const attack of attacks) {
      if (attack.id in ATTACKS_WITHOUT_NAMED_COUNTERPART) continue;
      const configured = new Set(Object.keys(attack.operator.tools));
      const answered = answeredNames(controlOf(attack));
      for (const call of calls(attack)) {
        const names = namesOf(call);
        if (call.expect.agent === 'result' || !names.some((name) => configured.has(name))) continue;
        expect(names.some((name) => answered.has(name)), `${attack.id}: ${attack.control} gets no result from ${names.join(' / ')}`).toBe(true);
      }
    }
  });

  it('exempts only scenarios that exist and need it', () => {
    for (const id of Object.keys(CONTROLS_WITHOUT_RESULT)) {
      const control = byId.get(id);
      expect(control?.kind, id).toBe('control');
      expect(answeredNames(control as Scenario).size, `${id} gets a result now: drop its exemption`).toBe(0);
    }
    for (const id of Object.keys(ATTACKS_WITHOUT_NAMED_COUNTERPART)) {
      const attack = byId.get(id);
      expect(attack?.kind, id).toBe('attack');
      const answered = answeredNames(controlOf(attack as Scenario));
      const shared = calls(attack as Scenario).flatMap(namesOf).filter((name) => answered.has(name));
      expect(shared, `${id} shares a tool with its control now: drop its exemption`).toEqual([]);
    }
  });
});
