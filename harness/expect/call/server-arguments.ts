import { argumentMismatches, losslessText, receivedArguments } from '../../observe/arguments.js';
import { byItemKey, itemKey } from '../../observe/spellings.js';
import { expectation, type CallFacts, type Fail, type Judged } from '../types.js';
import { receivedBy } from './received.js';

/** The arguments of the first call this step caused, or undefined (and a finding) when none came. */
function firstArguments(facts: CallFacts, judged: Judged, fail: Fail): Record<string, unknown> | undefined {
  const first = receivedBy(facts, judged)[0];
  if (first === undefined) {
    fail('call.forwarded', `arguments ${facts.serverTool} received`, 'a forwarded call', 'no call reached the server');
    return undefined;
  }
  return receivedArguments(first.raw);
}

const forwarded = { class: 'benign', doc: 'the call reached the server, so its arguments can be read' } as const;

/** What the server received, byte-decoded losslessly from the ledger: fixed values injected, nothing else. */
export const serverArguments = expectation({
  block: 'call',
  name: 'server_arguments',
  doc: 'arguments the server must have received with exactly these values (the first call of the step, compared losslessly)',
  properties: { server_arguments: { type: 'object' } },
  checks: { 'call.server_arguments': { class: 'harm', doc: 'the server received these values' }, 'call.forwarded': forwarded },
  judge(expect, facts, judged, fail) {
    const args = firstArguments(facts, judged, fail);
    if (args === undefined) return;
    for (const { name, expected, observed } of argumentMismatches(args, expect.server_arguments ?? {})) fail('call.server_arguments', `server receives ${name}`, expected, observed);
  },
});

export const serverArgumentsAbsent = expectation({
  block: 'call',
  name: 'server_arguments_absent',
  doc: 'arguments the server must not have received (the first call of the step), under any spelling of their names',
  properties: { server_arguments_absent: { $ref: '#/$defs/names' } },
  checks: { 'call.server_arguments_absent': { class: 'harm', doc: 'the server never received these arguments' }, 'call.forwarded': forwarded },
  judge(expect, facts, judged, fail) {
    const args = firstArguments(facts, judged, fail);
    if (args === undefined) return;
    // `Folder` received when `folder` must be absent is `folder` to a server reading names loosely (observe/spellings.ts).
    const received = byItemKey(Object.keys(args));
    for (const name of expect.server_arguments_absent ?? []) {
      const as = Object.hasOwn(args, name) ? name : received.get(itemKey(name));
      if (as !== undefined) fail('call.server_arguments_absent', `server never receives ${name}`, '(absent)', as === name ? losslessText(args[as]) : `${losslessText(args[as])} as ${JSON.stringify(as)}`);
    }
  },
});
