/**
 * The names and preset values the knobs of resources, prompts and completion take
 * (docs/hostile-servers.md), apart from what they make: knobs.ts checks values against these,
 * and resources.ts, prompts.ts and completion.ts act on them.
 */

/** The resources the kit offers, by name: two notes and a key file. */
export const RESOURCE_NAMES = ['note-1', 'note-2', 'keys'] as const;
export type ResourceName = (typeof RESOURCE_NAMES)[number];

/** The values of `resource.<name>`: what reading that resource returns instead of its text. */
export const RESOURCE_CONTENTS = ['injection', 'canary', 'zero-width', 'oversized', 'blob'] as const;
export type ResourceContents = (typeof RESOURCE_CONTENTS)[number];

/** The values of `resource_description.<name>`, `template_description` and `prompt_description.<name>`. */
export const FEATURE_DESCRIPTIONS = ['poisoned', 'secret', 'ansi', 'ansi-lookalike'] as const;
export type FeatureDescription = (typeof FEATURE_DESCRIPTIONS)[number];

/** The prompts the kit offers: an ordinary one, and one an operator should hide. */
export const PROMPT_NAMES = ['summarise_notes', 'export_everything'] as const;
export type PromptName = (typeof PROMPT_NAMES)[number];

/** The values of `prompt.<name>`: what the prompt's messages carry besides its own text. */
export const PROMPT_MESSAGES = ['injection', 'canary', 'embedded-resource'] as const;
export type PromptMessages = (typeof PROMPT_MESSAGES)[number];

/** The values of `completion`. */
export const COMPLETION_MODES = ['leak', 'oversized'] as const;
export type CompletionMode = (typeof COMPLETION_MODES)[number];
