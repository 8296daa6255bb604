// Guards on a call to a visible tool, in the order they run: the agent chain, hidden parameters,
// the input schema, the grant, then the policy for the tool's effect class with its approvals.
// Each refuses with a code the agent can read (docs/call-path.md); none lets the server see a
// call it refused.

import { hiddenParameters, hidingTest, injectFixed } from '../load/hidden.js';
import { heldExactlyByFloat64 } from '../json/number.js';
import { childPointer } from '../json/pointer.js';
import { object } from '../json/tree.js';
import { writeJson } from '../json/writer.js';
import { refusal } from '../session/refusal.js';
import { isLive } from '../operator/time.js';
import type { ApprovalEvent, CallGuard, CallVerdict } from './types.js';
import type { JsonValue, Plain, RefusalCode } from '../types.js';

const PASS: CallVerdict = { kind: 'pass' };

function refuse(
  code: RefusalCode,
  sentence: string,
  fields: Readonly<Record<string, Plain>>,
  extra: Pick<CallVerdict, 'event' | 'findings'> = {},
): CallVerdict {
  return { kind: 'refuse', refusal: refusal(code, sentence, fields), ...extra };
}

/** The most upstream agents a chain may name; a longer one is refused whatever its hops allow. */
export const MAX_CHAIN_HOPS = 8;

export const agentChain: CallGuard = {
  name: 'agent-chain',
  check({ name, tool, chain }, { agents }) {
    if (chain === undefined) return PASS;
    const hops = chain.kind === 'array' ? chain.items.flatMap((hop) => (hop.kind === 'string' ? [hop.value] : [])) : [];
    if (chain.kind !== 'array' || hops.length !== chain.items.length) {
      return refuse('agent_chain_denied', 'the agent chain is not a list of agent ids.', { hop: null });
    }
    if (hops.length > MAX_CHAIN_HOPS) {
      const sentence = `the agent chain names ${hops.length} hops; at most ${MAX_CHAIN_HOPS} are judged.`;
      return refuse('agent_chain_too_long', sentence, { hops: hops.length });
    }
    // An unknown agent has no list, so it allows nothing.
    const denied = hops.find((hop) => !(agents?.get(hop)?.has(tool?.tool ?? name) ?? false));
    return denied === undefined ? PASS : refuse('agent_chain_denied', 'an agent in the chain may not use this tool.', { hop: denied });
  },
};

export const hiddenParamsRefused: CallGuard = {
  name: 'hidden-params-refused',
  // Refused, never quietly dropped or overwritten: the agent learns its call did not run as sent.
  check({ tool, args }) {
    const hidden = hidingTest(hiddenParameters(tool?.rule));
    const parameter = args.entries.find(([name]) => hidden(name))?.[0];
    if (parameter === undefined) return PASS;
    const sentence = `the operator does not let a call set the parameter ${JSON.stringify(parameter)}.`;
    return refuse('parameter_not_allowed', sentence, { parameter });
  },
};

export const inputValid: CallGuard = {
  name: 'input-valid',
  check({ tool, args }) {
    // A hidden parameter is hidden-params-refused's to judge, so that each guard decides on one
    // protection; the schema judges the rest of the call.
    const hidden = hidingTest(hiddenParameters(tool?.rule));
    const judged = object(args.entries.filter(([name]) => !hidden(name)));
    const errors = [
      ...inexactNumbers(judged, '').map((at) => `${at} holds a number a float64 does not hold exactly`),
      ...(tool?.validator?.(judged) ?? []),
    ];
    if (errors.length === 0) return { kind: 'pass', findings: { validation: 'passed' } };
    return refuse('tool_input_schema_invalid', "the arguments do not satisfy the tool's input schema.", { errors }, { findings: { validation: 'failed' } });
  },
};

/** JSON Pointers to the number literals a float64 does not hold exactly, where the server's
 * parser and the broker's validator could read different values. */
function inexactNumbers(value: JsonValue, at: string): string[] {
  switch (value.kind) {
    case 'number':
      return heldExactlyByFloat64(value.text) ? [] : [at === '' ? '/' : at];
    case 'array':
      return value.items.flatMap((item, i) => inexactNumbers(item, childPointer(at, i)));
    case 'object':
      return value.entries.flatMap(([key, item]) => inexactNumbers(item, childPointer(at, key)));
    default:
      return [];
  }
}

export const grants: CallGuard = {
  name: 'grants',
  check({ tool }, { grants: held, clock }) {
    const permission = tool?.rule?.permission;
    if (permission === undefined) return PASS;
    const naming = held.filter((grant) => grant.permission === permission);
    const quoted = JSON.stringify(permission);
    if (naming.length === 0) return refuse('permission_not_granted', `no grant gives the permission ${quoted}.`, { permission });
    // The grant that lasts longest is the one the call relies on, or the one that expired last.
    const grant = naming.reduce((best, next) => (next.expiresAt > best.expiresAt ? next : best));
    if (!isLive(grant.expiresAt, clock())) {
      return refuse('grant_expired', `every grant of the permission ${quoted} has expired.`, { permission }, { findings: { grant } });
    }
    return { kind: 'pass', findings: { grant } };
  },
};

export const policy: CallGuard = {
  name: 'policy',
  check({ name, tool, args }, { policy: actions, approvals, agent, clock }) {
    // Without an effect (classified disabled) there is no class for the policy to judge.
    if (tool?.effect === undefined) return PASS;
    const effect = tool.effect;
    const action = actions[effect];
    if (action === 'allow') return PASS;
    if (action === 'deny') return refuse('policy_denied', `the operator's policy denies ${effect} tools.`, { effect });
    if (approvals === undefined) throw new Error(`the policy holds ${effect} for approval, but there is no approval store`);
    const forwarded = injectFixed(args, tool.rule?.fixed ?? []);
    const state = approvals.consult({ tool: tool.tool, name, args, forwarded, agent }, clock());
    const { requestId } = state;
    const fields = { request_id: requestId };
    const request = `(request ${requestId})`;
    switch (state.kind) {
      case 'pending': {
        const event: ApprovalEvent | undefined = state.isNew ? { decision: 'approval_requested', requestId } : undefined;
        // The request shows the tool as the agent knows it and the exact arguments the server
        // would get, fixed values included, written as JSON text so no number is rounded.
        const shown = { ...fields, tool: name, arguments: writeJson(forwarded) };
        return refuse('approval_required', `this exact call waits for the operator's approval ${request}.`, shown, event === undefined ? {} : { event });
      }
      case 'granted':
        return { kind: 'pass', note: `approved by request ${requestId}`, event: { decision: 'approval_granted', requestId } };
      case 'rejected':
        return refuse('approval_rejected', `the operator rejected this exact call ${request}.`, fields, { event: { decision: 'approval_rejected', requestId } });
      case 'expired':
        return refuse('approval_expired', `the approval for this exact call expired before it was used ${request}.`, fields);
    }
  },
};
