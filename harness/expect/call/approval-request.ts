import { parse as parseLossless } from 'lossless-json';
import { sameJson } from '../../observe/arguments.js';
import { structuredOf } from '../answer.js';
import { expectation } from '../types.js';

/** What an approval_required refusal names (docs/call-path.md): the broker's words to its operator. */
export default expectation({
  block: 'call',
  name: 'approval_request',
  doc: 'what an approval_required refusal must name: the tool as the agent calls it, and the exact arguments the server would receive, as JSON text',
  properties: {
    approval_request: { type: 'object', additionalProperties: false, required: ['tool', 'arguments'], properties: { tool: { type: 'string' }, arguments: { type: 'object' } } },
  },
  checks: { 'call.approval_request': { class: 'contract', doc: 'the approval request names the exact call' } },
  judge(expect, { answer }, _judged, fail) {
    const { tool, arguments: wanted } = expect.approval_request!;
    const content = structuredOf(answer);
    if (content?.tool !== tool) fail('call.approval_request', 'approval request names the tool', tool, content?.tool ?? '(none)');
    const text = content?.arguments;
    let shown: unknown;
    try {
      shown = typeof text === 'string' ? parseLossless(text) : undefined;
    } catch {
      shown = undefined;
    }
    if (shown === undefined || !sameJson(shown, wanted)) fail('call.approval_request', 'approval request shows the exact arguments', wanted, text ?? '(none)');
  },
});
