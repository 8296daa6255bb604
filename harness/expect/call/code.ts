import { describe, refusalCode } from '../answer.js';
import { expectation } from '../types.js';

/** The machine-readable refusal code of docs/call-path.md: the agreed shape, not the proof. */
export default expectation({
  block: 'call',
  name: 'code',
  doc: "the refusal code a tool error carries in `structuredContent.code` (docs/call-path.md)",
  properties: { code: { type: 'string', pattern: '^[a-z_]+$' } },
  checks: { 'call.code': { class: 'contract', doc: 'the tool error carries the refusal code of docs/call-path.md' } },
  judge(expect, { answer }, _judged, fail) {
    const code = refusalCode(answer);
    if (code !== expect.code) fail('call.code', 'refusal code', expect.code, code ?? `(none) ${describe(answer)}`);
  },
});
