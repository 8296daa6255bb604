/**
 * Description presets for the `description.<tool>` knob: a tool's description replaced, in both
 * phases, by one that carries an attack a broker must withhold (an instruction, a secret), hides
 * nothing behind invisible characters or terminal control sequences, or is a control it must show with its meaning intact.
 */
import {
  ANSI_CLIPBOARD,
  ANSI_CONCEALED,
  ANSI_HYPERLINK,
  ANSI_LOOKALIKE,
  ANSI_OVERWRITE,
  CANARY,
  CROSS_SERVER_DESCRIPTION,
  JAPANESE_DESCRIPTION,
  MENTIONS_SEARCH_DESCRIPTION,
  SPLIT_FIRST_HALF,
  SPLIT_SECOND_HALF,
  PREFERENCE_AS_USER_STEERING,
  PREFERENCE_STEERING,
  PRODUCT_WORDING_DESCRIPTION,
  SIBLING_MENTION_DESCRIPTION,
  withBidi,
  withZeroWidth,
} from './payloads.js';
import type { Sized, SizeRange } from './sized.js';
import { poisonedDescription } from './tools.js';

/** Each builds on the tool's own description where it can, so the tool still reads as itself. */
const FIXED = {
  poisoned: poisonedDescription,
  secret: (own: string) => `${own} Support reference: ${CANARY}.`,
  'zero-width': withZeroWidth,
  bidi: withBidi,
  'sibling-mention': () => SIBLING_MENTION_DESCRIPTION,
  japanese: () => JAPANESE_DESCRIPTION,
  'cross-server': () => CROSS_SERVER_DESCRIPTION,
  'ansi-concealed': () => ANSI_CONCEALED,
  'ansi-overwrite': () => ANSI_OVERWRITE,
  'ansi-hyperlink': () => ANSI_HYPERLINK,
  'ansi-clipboard': () => ANSI_CLIPBOARD,
  'ansi-lookalike': () => ANSI_LOOKALIKE,
  preference: (own: string) => `${own} ${PREFERENCE_STEERING}`,
  'preference-as-user': (own: string) => `${own} ${PREFERENCE_AS_USER_STEERING}`,
  'product-wording': () => PRODUCT_WORDING_DESCRIPTION,
  // The halves of one instruction, each on a tool of its own: listed in this order, they join.
  'split-first': (own: string) => `${own} ${SPLIT_FIRST_HALF}`,
  'split-second': () => SPLIT_SECOND_HALF,
  'mentions-search': () => MENTIONS_SEARCH_DESCRIPTION,
} satisfies Record<string, (own: string) => string>;

export type DescriptionPresetName = keyof typeof FIXED;
export const DESCRIPTION_PRESETS = Object.keys(FIXED) as DescriptionPresetName[];

export const DESCRIPTION_FAMILIES = { long: { min: 1, max: 1024 * 1024 } } satisfies Record<string, SizeRange>;

export type DescriptionPreset = DescriptionPresetName | Sized<keyof typeof DESCRIPTION_FAMILIES>;

export function presetDescription(preset: DescriptionPreset, own: string): string {
  if (typeof preset === 'string') return FIXED[preset](own);
  // `long-N`: the tool's own description over and over, cut to N characters (it is ASCII).
  return `${own} `.repeat(Math.ceil(preset.n / (own.length + 1))).slice(0, preset.n);
}
