// What the agent is told of each server's `instructions` (its initialize answer's advice on how to
// use it): text the model reads as it reads a description, so it is shown only as pinned, and
// through the descriptor inspection and cap. With several servers each one's is labelled by its
// server, so no server's advice reads as another's or as the broker's.

import type { Guards } from '../guards/registry.js';
import { inspectOutbound } from '../inspect/stage.js';
import { member, object, plain, stringValue } from '../json/tree.js';
import { descriptionHash } from './fingerprint.js';
import { descriptorStage } from './load.js';
import type { Limits } from '../types.js';

/** One server's instructions as it gave them, and the hash its pin recorded. */
export interface GivenInstructions {
  readonly server: string;
  readonly text: string | undefined;
  readonly pinnedHash: string | undefined;
}

export interface InstructionsDecision {
  /** What the broker's own initialize answer carries; undefined for none. */
  readonly text: string | undefined;
  /** Each server's instructions not shown, and why, for the operator's log. */
  readonly withheld: readonly { readonly server: string; readonly reason: string }[];
}

export function decideInstructions(given: readonly GivenInstructions[], guards: Pick<Guards, 'outbound'>, limits: Limits): InstructionsDecision {
  const shown: { server: string; text: string }[] = [];
  const withheld: { server: string; reason: string }[] = [];
  for (const { server, text, pinnedHash } of given) {
    if (text === undefined) continue;
    if (descriptionHash(text) !== pinnedHash) {
      withheld.push({ server, reason: pinnedHash === undefined ? 'the pin recorded none' : 'they changed since the pin' });
      continue;
    }
    const inspected = inspectOutbound(object([['instructions', plain(text)]]), 'descriptor', descriptorStage(guards.outbound, limits));
    const passed = inspected.ok && inspected.message.kind === 'object' ? stringValue(member(inspected.message, 'instructions')) : undefined;
    if (passed === undefined) withheld.push({ server, reason: inspected.ok ? 'they could not be inspected' : inspected.problem });
    else shown.push({ server, text: passed });
  }
  if (given.length === 1 || shown.length === 0) return { text: shown[0]?.text, withheld };
  return { text: shown.map(({ server, text }) => `Server "${server}": ${text}`).join('\n\n'), withheld };
}
