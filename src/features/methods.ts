// The listing methods of resources, templates and prompts: where each answer lists its items,
// and the member that keys an item.

import type { FeatureKind } from '../types.js';

/** The member each listing method's answer lists its items under, and the member that keys them. */
export const LISTINGS = {
  'resources/list': { kind: 'resource', field: 'resources', key: 'uri' },
  'resources/templates/list': { kind: 'template', field: 'resourceTemplates', key: 'uriTemplate' },
  'prompts/list': { kind: 'prompt', field: 'prompts', key: 'name' },
} as const satisfies Record<string, { kind: FeatureKind; field: string; key: string }>;
export type ListingMethod = keyof typeof LISTINGS;
