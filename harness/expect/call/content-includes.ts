import { isDeepStrictEqual } from 'node:util';
import { blocksOf } from '../answer.js';
import { expectation } from '../types.js';

/**
 * Blocks the agent must receive whole: for each, a block of the result with every member given
 * here, of equal value (a block may carry more, such as annotations). The presence beside
 * `content_types_absent`: where an operator lets non-text content through, an image must arrive
 * as the server sent it, not as a placeholder, nor re-encoded.
 */
export default expectation({
  block: 'call',
  name: 'content_includes',
  doc: 'content blocks the agent must receive, each matched on the members given (type, data, mimeType, uri, ...)',
  properties: {
    content_includes: {
      type: 'array',
      minItems: 1,
      items: { type: 'object', required: ['type'], properties: { type: { enum: ['text', 'image', 'audio', 'resource', 'resource_link'] } } },
    },
  },
  checks: { 'call.content_includes': { class: 'benign', doc: 'the blocks the server answered reach the agent whole' } },
  judge(expect, { answer }, _judged, fail) {
    const blocks = blocksOf(answer);
    for (const wanted of expect.content_includes ?? []) {
      const found = blocks.some((block) => Object.entries(wanted).every(([key, value]) => isDeepStrictEqual(block[key], value)));
      if (!found) fail('call.content_includes', `a ${String(wanted.type)} block`, JSON.stringify(wanted).slice(0, 200), JSON.stringify(blocks.map((block) => block.type)));
    }
  },
});
