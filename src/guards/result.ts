// Guards on a forwarded call's result, in the order they run: the broker's own marks cleared of
// what the server wrote, the server's own error report, the output schema, the effect contract's
// read-back, and content the broker cannot inspect. The outbound stage (inspect/stage.ts) then
// takes the whole result. Every rejection here comes after the tool ran (docs/result-path.md), so
// each says so and forbids a retry.

import { member, plain } from '../json/tree.js';
import { afterDispatch } from '../session/refusal.js';
import { blockText, contentBlocks, placeholder, withMembers } from '../result/content.js';
import { failedCheck, readbackArguments } from '../result/contract.js';
import { nonTextPasser } from '../result/non-text.js';
import type { ResultGuard, ResultVerdict } from './types.js';
import type { JsonValue } from '../types.js';

/**
 * The `_meta` namespace of the broker's own marks: the receipt, `verified`, `structured-dropped`.
 * What is under it speaks for the broker, so the server may write nothing there.
 */
export const BROKER_META_PREFIX = 'io.mcp-gauntlet/';
/** Marks a write whose effect contract's read-back confirmed it. */
export const VERIFIED_KEY = 'io.mcp-gauntlet/verified';

const pass = (result: JsonValue): ResultVerdict => ({ kind: 'pass', result });

export const brokerMarkersOnly: ResultGuard = {
  name: 'broker-markers-only',
  // A server that writes the broker's marks (a confirmed write, an approval, a grant, a request to
  // call another tool) would have the agent take its word for the broker's. Its own keys stay.
  check(result) {
    const meta = result.kind === 'object' ? member(result, '_meta') : undefined;
    if (result.kind !== 'object' || meta?.kind !== 'object') return pass(result);
    const own = meta.entries.filter(([key]) => !key.startsWith(BROKER_META_PREFIX));
    if (own.length === meta.entries.length) return pass(result);
    return pass(withMembers(result, [['_meta', { kind: 'object', entries: own }]]));
  },
};

function isServerError(result: JsonValue): boolean {
  const flag = result.kind === 'object' ? member(result, 'isError') : undefined;
  return flag?.kind === 'bool' && flag.value;
}

export const serverErrorIsToolError: ResultGuard = {
  name: 'server-error-is-tool-error',
  // A failed call has no output to hold to a schema and no effect to verify: judging it as a
  // success would replace the server's explanation with a rejection of the missing output.
  check: (result) => ({ kind: 'pass', result, serverError: isServerError(result) }),
};

export const outputValid: ResultGuard = {
  name: 'output-valid',
  check(result, { tool, serverError }) {
    const validate = tool?.outputValidator;
    if (validate === undefined || serverError) return pass(result);
    const structured = result.kind === 'object' ? member(result, 'structuredContent') : undefined;
    const errors = structured === undefined ? ['the tool has an output schema, and the result has no structuredContent'] : validate(structured);
    if (errors.length === 0) return pass(result);
    return { kind: 'refuse', refusal: afterDispatch('output_schema_invalid', "its structuredContent does not satisfy the tool's output schema.", { errors }) };
  },
};

export const effectContract: ResultGuard = {
  name: 'effect-contract',
  async check(result, { tool, args, serverError, registered, forward }) {
    const contract = tool?.rule?.contract;
    if (contract === undefined || serverError || result.kind !== 'object') return pass(result);
    const unverified = (why: string): ResultVerdict => ({
      kind: 'refuse',
      refusal: afterDispatch('verification_failed', `its effect could not be confirmed (${why}); it needs manual review.`),
    });
    const written = member(result, 'structuredContent');
    const readArgs = readbackArguments(contract, { arguments: args, result: written, readback: undefined });
    if (typeof readArgs === 'string') return unverified(readArgs);
    const reader = registered(contract.readbackTool);
    if (reader === undefined || reader.effect !== 'read_only') return unverified(`the read-back tool ${contract.readbackTool} is not a registered read-only tool`);
    let read: JsonValue;
    try {
      read = await forward(reader, readArgs);
    } catch (err) {
      return unverified(`the read-back failed: ${(err as Error).message}`);
    }
    if (isServerError(read) || read.kind !== 'object') return unverified('the read-back reported an error');
    const failed = failedCheck(contract, { arguments: args, result: written, readback: member(read, 'structuredContent') });
    if (failed !== null) return unverified(failed);
    const meta = member(result, '_meta');
    const entries = meta?.kind === 'object' ? meta.entries.filter(([key]) => key !== VERIFIED_KEY) : [];
    return pass(withMembers(result, [['_meta', { kind: 'object', entries: [...entries, [VERIFIED_KEY, plain(true)]] }]]));
  },
};

export const withholdUninspectable: ResultGuard = {
  name: 'withhold-uninspectable',
  check(result, { nonText }) {
    if (result.kind !== 'object' || member(result, 'content') === undefined) return pass(result);
    // With `non_text: pass`, a well-formed block is passed on rebuilt from its protocol fields (src/result/non-text.ts).
    const other = nonText === 'pass' ? nonTextPasser(placeholder) : placeholder;
    const content = contentBlocks(result).map((block) => (blockText(block) === undefined ? other(block) : block));
    return pass(withMembers(result, [['content', { kind: 'array', items: content }]]));
  },
};
