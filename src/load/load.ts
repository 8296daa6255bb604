// Load's decision: which of the server's tools the agent may see and call, and under which name.
// Every tool the server lists or the manifest pins passes the tool guards in order; the first
// refusal decides. What the agent is then shown of a registered tool is its input schema without
// the hidden parameters, as the presentation guards and then the outbound stage leave it.

import type { Guards } from '../guards/registry.js';
import type { ToolSubject } from '../guards/types.js';
import { hiddenParameters, restrictSchema } from './hidden.js';
import { toolDescriptor } from './tool-descriptor.js';
import { judgeTogether } from './together.js';
import { offeredName } from './names.js';
import { nameKey } from '../normal/name.js';
import { configureStage, inspectOutbound, type Stage, type StageStepConfig } from '../inspect/stage.js';
import { member, object, plain, stringValue } from '../json/tree.js';
import { compileSchema } from '../schema/compile.js';
import { unresolvedReference } from '../schema/local-references.js';
import { externalReference } from '../schema/references.js';
import type { Config, Effect, Limits, Rule, Presentation, ListedTool, Manifest, PinnedTool, JsonObject, Compiled, Validator, RegisteredTool, Refusal } from '../types.js';

export interface LoadOutcome {
  readonly registered: readonly RegisteredTool[];
  /** Every refusal, by whichever guard, in the order the tools were decided. */
  readonly refused: readonly Refusal[];
}

export function decideTools(listed: readonly ListedTool[], manifest: Manifest, config: Config, guards: Guards): LoadOutcome {
  const live = new Map(listed.map((tool) => [tool.name, tool]));
  const listedNames = new Set(live.keys());
  const names = [...live.keys(), ...[...manifest.tools.keys()].filter((name) => !live.has(name))];
  const registered: RegisteredTool[] = [];
  const refused: Refusal[] = [];
  const taken = new Set<string>();

  for (const name of names) {
    const subject = toolSubject(name, live.get(name), manifest.tools.get(name), config, taken, guards, listedNames);
    let refusal: Refusal | undefined;
    let hintMismatchOverridden: string | undefined;
    for (const guard of guards.tool) {
      const verdict = guard.check(subject);
      if (verdict.kind === 'overridden') hintMismatchOverridden = verdict.note;
      if (verdict.kind === 'refuse') {
        refusal = { tool: name, guard: guard.name, reason: verdict.reason };
        break;
      }
    }
    if (refusal !== undefined) {
      refused.push(refusal);
      continue;
    }
    const tool = register(subject, config, hintMismatchOverridden);
    registered.push(tool);
    taken.add(nameKey(tool.name));
  }
  return { registered: judgeTogether(guards.serverTools, registered, refused), refused };
}

export function toolSubject(
  name: string,
  live: ListedTool | undefined,
  pin: PinnedTool | undefined,
  config: Config,
  taken: ReadonlySet<string>,
  guards: Pick<Guards, 'presentation' | 'outbound'>,
  listed: ReadonlySet<string> = new Set(live === undefined ? [] : [name]),
): ToolSubject {
  // A tool the server no longer lists is decided on what the pin kept.
  const inputSchema = live?.inputSchema ?? pin?.inputSchema;
  if (inputSchema === undefined) throw new Error(`tool ${name} is neither listed nor pinned`);
  const rule = config.rules.get(name);
  const hidden = hiddenParameters(rule);
  const restricted = restrictSchema(inputSchema, hidden);
  let compiled: Compiled | undefined;
  const effect = rule?.effect;
  // A tool the server no longer lists reaches the agent only with still-offered disabled; it is
  // then shown as pinned.
  // A pin keeps a title only as its hash, so a tool shown as pinned has no title.
  const asReceived: Presentation = {
    title: live?.title,
    description: live?.description,
    inputSchema: restricted,
    outputSchema: live === undefined ? pin?.outputSchema : live.outputSchema,
    annotations: live === undefined ? pin?.annotations : live.annotations,
    execution: live === undefined ? pin?.execution : live.execution,
    // A pin keeps no icons: a tool shown as pinned has none.
    icons: live?.icons,
  };
  const offered = offeredName(name, rule, config.server.prefix);
  const presented = guards.presentation.reduce((shown, guard) => guard.present(shown, effect, rule, config.limits, config.server, pin), asReceived);
  const outbound = throughStage(offered, presented, guards, config);
  return {
    name,
    live,
    pin,
    rule,
    offered,
    taken,
    inputSchema,
    hidden,
    restricted,
    compiled: () => (compiled ??= compileSchema(restricted)),
    shown: outbound.ok ? outbound.shown : presented,
    withheld: outbound.ok ? undefined : outbound.problem,
    rules: config.rules,
    listed,
  };
}

/** Descriptors are decided before the session exists: nothing of the server's environment is redacted from them. */
const NO_SERVER_ENV: ReadonlyMap<string, string> = new Map();

/** The stage descriptors pass through, for one set of outbound guards and limits: configured once, not once per tool. */
const descriptorStages = new WeakMap<readonly StageStepConfig[], WeakMap<Limits, Stage>>();

export function descriptorStage(outbound: readonly StageStepConfig[], limits: Limits): Stage {
  let byLimits = descriptorStages.get(outbound);
  if (byLimits === undefined) descriptorStages.set(outbound, (byLimits = new WeakMap()));
  let stage = byLimits.get(limits);
  if (stage === undefined) byLimits.set(limits, (stage = configureStage(outbound, { serverEnv: NO_SERVER_ENV, limits })));
  return stage;
}

/** What the agent would be shown, as one descriptor message through the outbound stage. */
function throughStage(
  offered: string,
  presented: Presentation,
  guards: Pick<Guards, 'outbound'>,
  config: Config,
): { readonly ok: true; readonly shown: Presentation } | { readonly ok: false; readonly problem: string } {
  const descriptor = toolDescriptor(offered, presented);
  const outbound = inspectOutbound(descriptor, 'descriptor', descriptorStage(guards.outbound, config.limits));
  if (!outbound.ok) return outbound;
  const shown = outbound.message;
  // The stage keeps every object an object; a descriptor it did not would show nothing inspected.
  const schema = shown.kind === 'object' ? member(shown, 'inputSchema') : undefined;
  if (shown.kind !== 'object' || schema?.kind !== 'object') return { ok: false, problem: 'it could not be inspected' };
  const icons = member(shown, 'icons');
  const objectMember = (key: string): JsonObject | undefined => {
    const value = member(shown, key);
    return value?.kind === 'object' ? value : undefined;
  };
  return {
    ok: true,
    shown: {
      title: stringValue(member(shown, 'title')),
      description: stringValue(member(shown, 'description')),
      inputSchema: schema,
      outputSchema: objectMember('outputSchema'),
      annotations: objectMember('annotations'),
      execution: objectMember('execution'),
      icons: icons?.kind === 'array' ? icons : undefined,
    },
  };
}


function register(subject: ToolSubject, config: Config, hintMismatchOverridden: string | undefined): RegisteredTool {
  const { live, pin, rule } = subject;
  const compiled = subject.compiled();
  // The pinned output schema, when the tool is pinned: what the operator reviewed.
  const outputSchema = pin === undefined ? live?.outputSchema : pin.outputSchema;
  return {
    server: config.server.id,
    tool: subject.name,
    name: subject.offered,
    effect: rule?.effect,
    shown: subject.shown,
    callTimeoutMs: rule?.callTimeoutMs ?? config.limits.callTimeoutMs,
    hintMismatchOverridden,
    rule,
    validator: compiled.ok ? compiled.validate : undefined,
    outputValidator: outputSchema === undefined ? undefined : outputValidator(outputSchema),
    pin,
  };
}

/**
 * A validator for an output schema. One that refers outside itself, has a reference landing on no
 * schema of it, or does not compile cannot be enforced, so every result is then invalid: the tool's output is never shown unchecked.
 */
function outputValidator(schema: JsonObject): Validator {
  // Compiled at the first result: a rediscovery decides every tool again and uses none of these.
  let built: Validator | undefined;
  return (value) => (built ??= buildOutputValidator(schema))(value);
}

function buildOutputValidator(schema: JsonObject): Validator {
  const reference = externalReference(schema);
  if (reference !== null) return () => [`the output schema is not self-contained: ${reference}`];
  // Ajv compiles a reference to a keyword's value as the empty schema: every result would pass.
  const unresolved = unresolvedReference(schema);
  if (unresolved !== null) return () => [`the output schema has a reference that lands on no schema: ${unresolved}`];
  const compiled = compileSchema(schema);
  return compiled.ok ? compiled.validate : () => [`the output schema does not compile: ${compiled.error}`];
}
