// Load's decision: which of the server's tools the agent may see and call, and under which name.
// Every tool the server lists or the manifest pins passes the tool guards in order; the first
// refusal decides. What the agent is then shown of a registered tool is its input schema without
// the hidden parameters, as the presentation guards leave it.

import type { Config, Effect, Rule } from './config.js';
import type { Guards } from './guards/registry.js';
import type { Presentation, ToolSubject } from './guards/types.js';
import { hiddenParameters, restrictSchema } from './hidden.js';
import type { ListedTool } from './listing.js';
import type { Manifest, PinnedTool } from './manifest.js';
import { offeredName } from './names.js';
import { compileSchema, type Compiled, type Validator } from './schema/compile.js';

export interface RegisteredTool {
  /** The server's name for it: what a call is forwarded as. */
  readonly tool: string;
  /** The name the agent sees and calls. */
  readonly name: string;
  /** Undefined only when the `classified` guard is disabled and the tool has no rule. */
  readonly effect: Effect | undefined;
  readonly shown: Presentation;
  readonly callTimeoutMs: number;
  /** Set when hint-consistency passed the tool only because the rule allows a mismatch. */
  readonly hintMismatchOverridden: string | undefined;
  /** The operator's rule; undefined only when the `classified` guard is disabled. */
  readonly rule: Rule | undefined;
  /** Checks a call against the shown schema; undefined when it did not compile (schema-compiles disabled). */
  readonly validator: Validator | undefined;
}

export interface Refusal {
  /** The server's name for the tool. */
  readonly tool: string;
  readonly guard: string;
  readonly reason: string;
}

export interface LoadOutcome {
  readonly registered: readonly RegisteredTool[];
  /** Every refusal, by whichever guard, in the order the tools were decided. */
  readonly refused: readonly Refusal[];
}

export function decideTools(listed: readonly ListedTool[], manifest: Manifest, config: Config, guards: Guards): LoadOutcome {
  const live = new Map(listed.map((tool) => [tool.name, tool]));
  const names = [...live.keys(), ...[...manifest.tools.keys()].filter((name) => !live.has(name))];
  const registered: RegisteredTool[] = [];
  const refused: Refusal[] = [];
  const taken = new Set<string>();

  for (const name of names) {
    const subject = toolSubject(name, live.get(name), manifest.tools.get(name), config, taken);
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
    const tool = register(subject, config, guards, hintMismatchOverridden);
    registered.push(tool);
    taken.add(tool.name);
  }
  return { registered, refused };
}

export function toolSubject(
  name: string,
  live: ListedTool | undefined,
  pin: PinnedTool | undefined,
  config: Config,
  taken: ReadonlySet<string>,
): ToolSubject {
  // A tool the server no longer lists is decided on what the pin kept.
  const inputSchema = live?.inputSchema ?? pin?.inputSchema;
  if (inputSchema === undefined) throw new Error(`tool ${name} is neither listed nor pinned`);
  const rule = config.rules.get(name);
  const hidden = hiddenParameters(rule);
  const restricted = restrictSchema(inputSchema, hidden);
  let compiled: Compiled | undefined;
  return {
    name,
    live,
    pin,
    rule,
    offered: offeredName(name, rule, config.server.prefix),
    taken,
    inputSchema,
    hidden,
    restricted,
    compiled: () => (compiled ??= compileSchema(restricted)),
  };
}

function register(subject: ToolSubject, config: Config, guards: Guards, hintMismatchOverridden: string | undefined): RegisteredTool {
  const { live, pin, rule } = subject;
  // A tool the server no longer lists reaches here only with still-offered disabled; it is then
  // shown as pinned.
  const asReceived: Presentation = {
    description: live?.description,
    inputSchema: subject.restricted,
    annotations: live === undefined ? pin?.annotations : live.annotations,
  };
  const effect = rule?.effect;
  const compiled = subject.compiled();
  return {
    tool: subject.name,
    name: subject.offered,
    effect,
    shown: guards.presentation.reduce((shown, guard) => guard.present(shown, effect, rule), asReceived),
    callTimeoutMs: rule?.callTimeoutMs ?? config.limits.callTimeoutMs,
    hintMismatchOverridden,
    rule,
    validator: compiled.ok ? compiled.validate : undefined,
  };
}
