import type { EffectiveHints } from '../../scenario/types.js';
import { expectation } from '../types.js';

/** MCP's defaults for absent hints: what an agent reading the listing would assume. */
export const HINT_DEFAULTS: Required<EffectiveHints> = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

function effectiveHints(annotations: unknown): Required<EffectiveHints> {
  const given = annotations && typeof annotations === 'object' ? (annotations as Record<string, unknown>) : {};
  const pick = (hint: keyof EffectiveHints) => (typeof given[hint] === 'boolean' ? (given[hint] as boolean) : HINT_DEFAULTS[hint]);
  return { readOnlyHint: pick('readOnlyHint'), destructiveHint: pick('destructiveHint'), idempotentHint: pick('idempotentHint'), openWorldHint: pick('openWorldHint') };
}

export default expectation({
  block: 'list',
  name: 'effective_hints',
  doc: "hints as the agent would read them, with MCP's defaults applied to absent ones",
  properties: { effective_hints: { type: 'object', additionalProperties: { $ref: '#/$defs/hints' } } },
  checks: {
    'list.effective_hints': { class: 'harm', doc: 'the agent reads hints no more permissive than the operator class' },
    'list.hinted_offered': { class: 'benign', doc: 'the tool whose hints are read is offered' },
  },
  judge(expect, { byName }, _judged, fail) {
    for (const [name, hints] of Object.entries(expect.effective_hints ?? {})) {
      const tool = byName.get(name);
      if (!tool) {
        fail('list.hinted_offered', `hints of ${name}`, hints, '(tool not offered)');
        continue;
      }
      const seen = effectiveHints(tool.annotations);
      for (const [hint, value] of Object.entries(hints) as Array<[keyof EffectiveHints, boolean]>) {
        if (seen[hint] !== value) fail('list.effective_hints', `${hint} of ${name}`, value, seen[hint]);
      }
    }
  },
});
