import { receiptOf } from '../answer.js';
import { expectation } from '../types.js';

export default expectation({
  block: 'call',
  name: 'receipt',
  doc: 'fields the result\'s receipt (`_meta["io.mcp-gauntlet/receipt"]`, docs/call-path.md) must carry',
  properties: { receipt: { type: 'object', minProperties: 1, additionalProperties: { type: ['string', 'null'] } } },
  checks: { 'call.receipt': { class: 'record', doc: 'the receipt states what ran, under which permission and trust' } },
  judge(expect, { answer }, _judged, fail) {
    const receipt = receiptOf(answer);
    for (const [field, value] of Object.entries(expect.receipt ?? {})) {
      if (receipt?.[field] !== value) fail('call.receipt', `receipt ${field}`, value, receipt ? receipt[field] : '(no receipt)');
    }
  },
});
