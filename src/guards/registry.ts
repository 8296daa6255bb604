// Every guard the broker has, by kind and in the order it runs. `--disable-guard NAME` removes
// exactly the named one; the rest of the broker then behaves as if that protection did not exist.

import { ConfigError } from '../errors.js';
import { agentChain, grants, hiddenParamsRefused, inputValid, policy } from './call.js';
import { listingBounds, listingUnique } from './listing.js';
import { nameRules, nameUnique } from './names.js';
import { operatorAnnotations, operatorDescription } from './presentation.js';
import { hiddenNamesSound, objectSchema, schemaCompiles, selfContained } from './schema.js';
import { agentVisibility, nothingRegistered, registeredCallsOnly } from './session.js';
import { classified, descriptionPin, hintConsistency, pinned, schemaPin, stillOffered } from './tool.js';
import type { CallGuard, ListingGuard, PresentationGuard, ServeGuard, ToolGuard, VisibilityGuard } from './types.js';

export interface Guards {
  readonly listing: readonly ListingGuard[];
  readonly tool: readonly ToolGuard[];
  readonly presentation: readonly PresentationGuard[];
  readonly visibility: readonly VisibilityGuard[];
  readonly call: readonly CallGuard[];
  readonly serve: readonly ServeGuard[];
}

export const ALL_GUARDS: Guards = {
  listing: [listingBounds, listingUnique],
  tool: [
    stillOffered,
    classified,
    pinned,
    schemaPin,
    descriptionPin,
    hintConsistency,
    objectSchema,
    selfContained,
    hiddenNamesSound,
    schemaCompiles,
    nameRules,
    nameUnique,
  ],
  presentation: [operatorAnnotations, operatorDescription],
  visibility: [registeredCallsOnly, agentVisibility],
  // The order docs/call-path.md fixes: chain, hidden parameters, input schema, grant, policy.
  call: [agentChain, hiddenParamsRefused, inputValid, grants, policy],
  serve: [nothingRegistered],
};

export const GUARD_NAMES: readonly string[] = Object.values(ALL_GUARDS).flatMap((list: readonly { name: string }[]) =>
  list.map((guard) => guard.name),
);

/** All guards but the disabled ones; an unknown name is a command-line error. */
export function selectGuards(disabled: readonly string[]): Guards {
  for (const name of disabled) {
    if (!GUARD_NAMES.includes(name)) {
      throw new ConfigError(`unknown guard "${name}"; the guards are: ${GUARD_NAMES.join(', ')}`);
    }
  }
  const keep = <G extends { readonly name: string }>(list: readonly G[]): G[] =>
    list.filter((guard) => !disabled.includes(guard.name));
  return {
    listing: keep(ALL_GUARDS.listing),
    tool: keep(ALL_GUARDS.tool),
    presentation: keep(ALL_GUARDS.presentation),
    visibility: keep(ALL_GUARDS.visibility),
    call: keep(ALL_GUARDS.call),
    serve: keep(ALL_GUARDS.serve),
  };
}
