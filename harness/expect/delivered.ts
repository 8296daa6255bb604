import { expectation, type Expectation } from './types.js';

const DOC = 'the agent received the answer the server sent: a broker that drops it silently has broken the ordinary use (`over-blocked`), where one the server never answered through is only unresponsive (`error`)';

/**
 * Whether an answer the server sent reached the agent, for the step that asked for it. The step
 * records `undelivered` when its time ran out with the agent holding nothing while the ledger
 * shows the server's reply (harness/run/steps.ts): the case still ends unjudged beyond that,
 * but never as a pass, and it is the broker's silence, not a hang, that the finding names.
 */
function delivered<B extends 'list' | 'call' | 'request'>(block: B): Expectation<B> {
  const check = `${block}.delivered`;
  return expectation<B>({
    block,
    name: check,
    doc: DOC,
    properties: {},
    always: true,
    judgesUnfinished: true,
    checks: { [check]: { class: 'benign', doc: DOC } },
    judge(_expect, facts, _judged, fail) {
      const undelivered = (facts as { undelivered?: string }).undelivered;
      if (undelivered !== undefined) fail(check, 'the agent receives the server\'s answer', 'an answer before the step\'s deadline', undelivered);
    },
  });
}

export const listDelivered = delivered('list');
export const callDelivered = delivered('call');
export const requestDelivered = delivered('request');
