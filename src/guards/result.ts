// Guards on a forwarded call's result, in the order they run: the broker's own marks cleared of
// what the server wrote, the server's own error report, the output schema, the effect contract's read-back, content the broker cannot inspect, inspection,
// and the caps. Every rejection here comes after the tool ran (docs/result-path.md), so each says
// so and forbids a retry.

import { writeJson } from '../json/writer.js';
import { member, plain } from '../json/tree.js';
import { codePoints } from '../inspect/bounds.js';
import { inspectValue } from '../inspect/inspect.js';
import { afterDispatch } from '../session/refusal.js';
import { capTexts } from '../result/cap.js';
import { blockText, contentBlocks, placeholder, textBlock, withMembers } from '../result/content.js';
import { failedCheck, readbackArguments } from '../result/contract.js';
import type { ResultGuard, ResultVerdict } from './types.js';
import type { JsonValue } from '../types.js';

/**
 * The `_meta` namespace of the broker's own marks: the receipt, `verified`, `structured-dropped`.
 * What is under it speaks for the broker, so the server may write nothing there.
 */
export const BROKER_META_PREFIX = 'io.mcp-gauntlet/';
/** Marks a result whose structuredContent the result cap dropped. */
export const STRUCTURED_DROPPED_KEY = 'io.mcp-gauntlet/structured-dropped';
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
  check(result) {
    if (result.kind !== 'object' || member(result, 'content') === undefined) return pass(result);
    const content = contentBlocks(result).map((block) => (blockText(block) === undefined ? placeholder(block) : block));
    return pass(withMembers(result, [['content', { kind: 'array', items: content }]]));
  },
};

export const inspectResults: ResultGuard = {
  name: 'inspect-results',
  check(result) {
    const texts = result.kind === 'object' ? contentBlocks(result).flatMap((block) => blockText(block) ?? []) : [];
    const structured = result.kind === 'object' ? member(result, 'structuredContent') : undefined;
    // The depth and node bounds are the structured part's; the string bounds cover every text.
    const inspected = inspectValue(result, ['secret', 'injection'], structured, texts);
    if (inspected.ok) return pass(inspected.value);
    return { kind: 'refuse', refusal: afterDispatch('result_withheld', `its result is withheld: ${inspected.problem}.`) };
  },
};

export const resultCap: ResultGuard = {
  name: 'result-cap',
  check(result, { limits }) {
    if (result.kind !== 'object') return pass(result);
    const blocks = contentBlocks(result);
    const texts = blocks.flatMap((block) => blockText(block) ?? []);
    const capped = capTexts(texts, limits.maxResultChars);
    let next = 0;
    const content = blocks.flatMap((block) => {
      if (blockText(block) === undefined) return [block];
      const text = capped.texts[next++];
      return text === null || text === undefined ? [] : [text === blockText(block) ? block : textBlock(text)];
    });
    const structured = member(result, 'structuredContent');
    const drop = structured !== undefined && codePoints(writeJson(structured)) > limits.maxResultChars;
    if (!capped.cut && !drop) return pass(result);
    const meta = member(result, '_meta');
    const metaEntries = meta?.kind === 'object' ? meta.entries.filter(([key]) => key !== STRUCTURED_DROPPED_KEY) : [];
    return pass(
      withMembers(result, [
        ['content', { kind: 'array', items: content }],
        ...(drop
          ? ([
              ['structuredContent', undefined],
              ['_meta', { kind: 'object', entries: [...metaEntries, [STRUCTURED_DROPPED_KEY, plain(true)]] }],
            ] as const)
          : []),
      ]),
    );
  },
};
