// Source to sink across two tools: a session that has read the operator's private data with one
// tool must not send it out with another. The broker cannot tell which words of a later call came
// from the private read, so after one, every call to a tool that reaches outside is refused.

import { refusal } from '../session/refusal.js';
import type { RegisteredTool } from '../types.js';
import type { CallGuard } from './types.js';

/** A tool reaches outside the operator's machine when its change is remote or the operator calls it open-world. */
function reachesOutside(tool: RegisteredTool): boolean {
  return tool.effect === 'remote_change' || tool.rule?.openWorld === true;
}

export const sourceToSink: CallGuard = {
  name: 'source-to-sink',
  // Last among the call guards, so a pass here is the call being dispatched: a source is
  // recorded as read once it is let through, whether or not its server then answers.
  check({ tool }, { privateReads }) {
    if (tool === undefined) return { kind: 'pass' };
    const source = privateReads.firstSource();
    if (source !== undefined && reachesOutside(tool)) {
      return {
        kind: 'refuse',
        refusal: refusal('policy_denied', `this session has read private data with ${source}, and ${tool.name} reaches outside, so it is refused for the rest of the session.`, { source }),
      };
    }
    if (tool.rule?.readsPrivate === true) privateReads.read(tool.name);
    return { kind: 'pass' };
  },
};
