import { blocksOf } from '../answer.js';
import { expectation } from '../types.js';

export default expectation({
  block: 'call',
  name: 'content_types_absent',
  doc: 'content block types the agent must not receive',
  properties: { content_types_absent: { type: 'array', items: { enum: ['text', 'image', 'audio', 'resource', 'resource_link'] } } },
  checks: { 'call.content_types_absent': { class: 'harm', doc: 'no block of a withheld type reaches the agent' } },
  judge(expect, { answer }, _judged, fail) {
    const types = new Set(blocksOf(answer).map((block) => String(block.type)));
    for (const type of expect.content_types_absent ?? []) if (types.has(type)) fail('call.content_types_absent', `no ${type} content`, 'absent', 'present');
  },
});
