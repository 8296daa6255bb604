// Load's decision on resources, templates and prompts: each descriptor the server listed is shown
// through every descriptor guard in turn, and offered only if none withholds it. What is decided
// here is what the agent is offered for the whole session, whatever the server later announces.

import { member, object, stringValue } from '../json/tree.js';
import type { FeatureGuard } from '../guards/types.js';
import { normaliseUri } from './uri.js';
import type { Config, Descriptor, FeatureKind, FeaturePins, JsonObject, Offered } from '../types.js';

/**
 * The members of a descriptor the agent is shown: those MCP 2025-11-25 defines that the broker
 * judges (a title is pinned with the whole descriptor and inspected as its description is; icons
 * are pinned with it too, and only those icons-safe keeps are shown); a server's annotations and
 * _meta are not passed on.
 */
const SHOWN: Readonly<Record<FeatureKind, readonly string[]>> = {
  resource: ['uri', 'name', 'title', 'description', 'mimeType', 'icons'],
  template: ['uriTemplate', 'name', 'title', 'description', 'mimeType', 'icons'],
  prompt: ['name', 'title', 'description', 'arguments', 'icons'],
};

const ARGUMENT_SHOWN = ['name', 'title', 'description', 'required'];

function shownOf({ kind, listed }: Descriptor): JsonObject {
  const picked = (from: JsonObject, keys: readonly string[]) => object(keys.map((key) => [key, member(from, key)]));
  const shown = picked(listed, SHOWN[kind]);
  const args = member(shown, 'arguments');
  if (args === undefined) return shown;
  const items = args.kind === 'array' ? args.items.flatMap((item) => (item.kind === 'object' ? [picked(item, ARGUMENT_SHOWN)] : [])) : [];
  return object(shown.entries.map(([key, value]) => [key, key === 'arguments' ? { kind: 'array', items } : value]));
}

export interface FeatureDecision {
  readonly offered: Offered;
  /** Each descriptor withheld, with the guard and its reason, for the operator's log. */
  readonly withheld: readonly { readonly kind: FeatureKind; readonly key: string; readonly guard: string; readonly reason: string }[];
}

/**
 * `toolsHidden` are the tools the server listed that the agent is not offered: a completion must
 * not name them either.
 */
export function decideFeatures(
  listed: readonly Descriptor[],
  pins: FeaturePins | undefined,
  config: Config,
  guards: readonly FeatureGuard[],
  toolsHidden: readonly string[],
): FeatureDecision {
  const offered: Record<FeatureKind, JsonObject[]> = { resource: [], template: [], prompt: [] };
  const withheld: FeatureDecision['withheld'][number][] = [];
  const hidden = new Set(toolsHidden);
  for (const descriptor of listed) {
    let shown = shownOf(descriptor);
    let refusal: { guard: string; reason: string } | undefined;
    for (const guard of guards) {
      const verdict = guard.present?.({ descriptor, shown, config, pins });
      if (verdict === undefined) continue;
      if (!verdict.ok) {
        refusal = { guard: guard.name, reason: verdict.reason };
        break;
      }
      shown = verdict.shown;
    }
    if (refusal === undefined) {
      offered[descriptor.kind].push(shown);
      continue;
    }
    withheld.push({ kind: descriptor.kind, key: descriptor.key, ...refusal });
    hidden.add(descriptor.key);
    // A withheld resource stays hidden by the URI it would be read by, even where a template matches it.
    const uri = descriptor.kind === 'resource' ? normaliseUri(descriptor.key) : undefined;
    if (uri?.ok === true) hidden.add(uri.href);
    const name = stringValue(member(descriptor.listed, 'name'));
    if (name !== undefined) hidden.add(name);
  }
  // A name both hidden and offered (a withheld resource sharing an offered one's name) is not hidden.
  for (const shown of Object.values(offered).flat()) {
    for (const key of ['name', 'uri', 'uriTemplate']) hidden.delete(stringValue(member(shown, key)) ?? '');
  }
  return { offered: { resources: offered.resource, templates: offered.template, prompts: offered.prompt, hidden }, withheld };
}
