// The name the agent sees for a tool. Calls arrive under it and are forwarded under the server's
// own name, so the operator can rename a tool, or mark every tool with its server's prefix so
// that tools from different servers cannot be mistaken for one another.

import type { Rule } from '../types.js';

/** The first seed's name rule: 1 to 64 letters, digits, underscores and hyphens. */
export const NAME_RULE = /^[a-zA-Z0-9_-]{1,64}$/;

export function offeredName(tool: string, rule: Rule | undefined, prefix: string | undefined): string {
  return rule?.rename ?? (prefix === undefined ? tool : `${prefix}_${tool}`);
}
