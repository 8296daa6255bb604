import { shownTexts } from '../answer.js';
import { expectation } from '../types.js';

/** Text cut inside a surrogate pair is malformed whatever the scenario checks. */
export default expectation({
  block: 'call',
  name: 'well_formed_text',
  always: true,
  doc: 'every text the agent is shown is well-formed Unicode (no lone surrogate)',
  properties: {},
  checks: { 'call.well_formed_text': { class: 'contract', doc: 'no text shown holds a lone surrogate' } },
  judge(_expect, { answer }, _judged, fail) {
    if (!shownTexts(answer).every((text) => text.isWellFormed())) fail('call.well_formed_text', 'well-formed text', 'no split code point', 'a lone surrogate');
  },
});
