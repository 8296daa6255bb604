// Load's decision: which of the server's tools the agent may see and call. Every tool the server
// lists or the manifest pins passes the tool guards in order; the first refusal decides. What
// the agent is then shown of a registered tool is the presentation guards' work.

import type { Config, Effect } from './config.js';
import type { Guards } from './guards/registry.js';
import type { Presentation, ToolSubject } from './guards/types.js';
import type { ListedTool } from './listing.js';
import type { Manifest } from './manifest.js';

export interface RegisteredTool {
  readonly name: string;
  /** Undefined only when the `classified` guard is disabled and the tool has no rule. */
  readonly effect: Effect | undefined;
  readonly shown: Presentation;
  readonly callTimeoutMs: number;
  /** Set when hint-consistency passed the tool only because the rule allows a mismatch. */
  readonly hintMismatchOverridden: string | undefined;
}

export interface Refusal {
  readonly tool: string;
  readonly guard: string;
  readonly reason: string;
}

export interface LoadOutcome {
  readonly registered: readonly RegisteredTool[];
  readonly refused: readonly Refusal[];
  readonly unpinned: readonly string[];
  readonly unclassified: readonly string[];
}

// Refusals by these guards are reported in lists of their own, as the load report defines.
const LISTED_APART: Readonly<Record<string, 'unpinned' | 'unclassified'>> = {
  classified: 'unclassified',
  pinned: 'unpinned',
};

export function decideTools(listed: readonly ListedTool[], manifest: Manifest, config: Config, guards: Guards): LoadOutcome {
  const live = new Map(listed.map((tool) => [tool.name, tool]));
  const names = [...live.keys(), ...[...manifest.tools.keys()].filter((name) => !live.has(name))];
  const registered: RegisteredTool[] = [];
  const refused: Refusal[] = [];
  const apart = { unpinned: [] as string[], unclassified: [] as string[] };

  for (const name of names) {
    const subject: ToolSubject = { name, live: live.get(name), pin: manifest.tools.get(name), rule: config.rules.get(name) };
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
    if (refusal === undefined) {
      registered.push(register(subject, config, guards, hintMismatchOverridden));
      continue;
    }
    const list = LISTED_APART[refusal.guard];
    if (list === undefined) refused.push(refusal);
    else apart[list].push(name);
  }
  return { registered, refused, ...apart };
}

function register(subject: ToolSubject, config: Config, guards: Guards, hintMismatchOverridden: string | undefined): RegisteredTool {
  const { live, pin, rule } = subject;
  // A tool the server no longer lists reaches here only with still-offered disabled; it is then
  // shown as pinned.
  const inputSchema = live?.inputSchema ?? pin?.inputSchema;
  if (inputSchema === undefined) throw new Error(`tool ${subject.name} is neither listed nor pinned`);
  const asReceived: Presentation = {
    description: live?.description,
    inputSchema,
    annotations: live === undefined ? pin?.annotations : live.annotations,
  };
  const effect = rule?.effect;
  return {
    name: subject.name,
    effect,
    shown: guards.presentation.reduce((shown, guard) => guard.present(shown, effect, rule), asReceived),
    callTimeoutMs: rule?.callTimeoutMs ?? config.limits.callTimeoutMs,
    hintMismatchOverridden,
  };
}
