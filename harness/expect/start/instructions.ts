import { expectation } from '../types.js';
import { carrierOf } from '../../observe/spellings.js';

/**
 * The `instructions` of the answer that opened the agent's session, initialize's (2025-11-25) or
 * server/discover's (2026-07-28), which carry them alike; undefined when it carried none.
 */
function received(answer: { kind: string; result?: Record<string, unknown> }): string | undefined {
  const text = answer.kind === 'result' ? answer.result?.['instructions'] : undefined;
  return typeof text === 'string' ? text : undefined;
}

/** What the agent is told of the server at initialize: its instructions, as the server gave them or not at all. */
export const instructions = expectation({
  block: 'start',
  name: 'instructions',
  doc: 'the exact `instructions` the initialize (in 2026-07-28, server/discover) answer the agent receives must carry',
  properties: { instructions: { type: 'string' } },
  checks: { 'start.instructions': { class: 'benign', doc: "the server's instructions reach the agent as the server gave them" } },
  judge(expect, { answer }, _judged, fail) {
    const seen = received(answer);
    if (expect.instructions !== undefined && seen !== expect.instructions) fail('start.instructions', 'instructions received', expect.instructions, seen ?? '(none)');
  },
});

export const instructionsExclude = expectation({
  block: 'start',
  name: 'instructions_excludes',
  doc: 'strings the `instructions` of the initialize (in 2026-07-28, server/discover) answer the agent receives must not contain (none received contain none) (found as written or respelt: compatibility forms, any case)',
  properties: { instructions_excludes: { $ref: '#/$defs/fragments' } },
  checks: { 'start.instructions_excludes': { class: 'harm', doc: "what the server hid in its instructions, or changed in them since the pin, does not reach the agent" } },
  judge(expect, { answer }, _judged, fail) {
    const seen = received(answer) ?? '';
    for (const fragment of expect.instructions_excludes ?? []) {
      if (carrierOf([seen], fragment) !== undefined) fail('start.instructions_excludes', `instructions exclude ${JSON.stringify(fragment)}`, 'absent', 'present');
    }
  },
});
