import type { Answer } from '../agent/client.js';
import { stringsOfLine } from '../observe/strings.js';
import type { CallOutcome } from '../scenario/types.js';

/** Where a result carries its receipt (docs/call-path.md). */
export const RECEIPT_META = 'io.mcp-gauntlet/receipt';

/** What kind of answer the agent got, in the terms of `agent:`. */
export function callOutcome(answer: Answer): CallOutcome | 'malformed' | 'closed' | 'timeout' {
  if (answer.kind === 'error') return 'protocol-error';
  if (answer.kind === 'result') return answer.result.isError === true ? 'tool-error' : 'result';
  return answer.kind;
}

/** A result's `_meta`; empty when it has none, or when the answer is not a result. */
export function metaOf(answer: Answer): Record<string, unknown> {
  const meta = answer.kind === 'result' ? answer.result._meta : undefined;
  return meta !== null && typeof meta === 'object' ? (meta as Record<string, unknown>) : {};
}

/** The receipt a result carries in `_meta` (docs/call-path.md), if any. */
export function receiptOf(answer: Answer): Record<string, unknown> | undefined {
  const receipt = metaOf(answer)[RECEIPT_META];
  return receipt !== null && typeof receipt === 'object' ? (receipt as Record<string, unknown>) : undefined;
}

export function structuredOf(answer: Answer): Record<string, unknown> | undefined {
  if (answer.kind !== 'result') return undefined;
  const content = answer.result.structuredContent;
  return content && typeof content === 'object' ? (content as Record<string, unknown>) : undefined;
}

/** The machine-readable code of a tool error (docs/call-path.md). */
export function refusalCode(answer: Answer): string | undefined {
  if (answer.kind !== 'result' || answer.result.isError !== true) return undefined;
  const code = structuredOf(answer)?.code;
  return typeof code === 'string' ? code : undefined;
}

export function approvalRequestId(answer: Answer): string | undefined {
  if (refusalCode(answer) !== 'approval_required') return undefined;
  const id = structuredOf(answer)?.request_id;
  return typeof id === 'string' ? id : undefined;
}

/** A result's content blocks; none for anything else. */
export function blocksOf(answer: Answer): Array<Record<string, unknown>> {
  if (answer.kind !== 'result' || !Array.isArray(answer.result.content)) return [];
  return answer.result.content as Array<Record<string, unknown>>;
}

/** The text the agent is shown to read: a result's text blocks, or a protocol error's message. */
export function shownTexts(answer: Answer): string[] {
  if (answer.kind === 'error') return [answer.error.message];
  return blocksOf(answer)
    .filter((block) => block.type === 'text')
    .map((block) => String(block.text ?? ''));
}

/** Code points, which is what every length bound of the suite counts. */
export const codePoints = (texts: readonly string[]): number => texts.reduce((sum, text) => sum + [...text].length, 0);

/**
 * Every string the agent received with a call: each string of the answer's whole line, decoded
 * (a value the broker escaped in JSON is still there for the agent), and of every other line the
 * broker sent while the call was open (notifications, requests of its own).
 */
export function everyStringReceived(answer: Answer, others: readonly string[]): string[] {
  const raw = rawOf(answer);
  const lines = [...(raw === undefined ? [] : [raw]), ...others];
  return lines.flatMap(stringsOfLine);
}

/** The answer's line as the agent received it, or as far as it came for one still arriving at the timeout. */
export const rawOf = (answer: Answer): string | undefined => ('raw' in answer ? answer.raw : undefined);

export function describe(answer: Answer): string {
  switch (answer.kind) {
    case 'result':
      return `result ${answer.raw.slice(0, 200)}`;
    case 'error':
      return `protocol error ${answer.error.code}: ${answer.error.message.slice(0, 200)}`;
    case 'malformed':
      return `malformed answer (${answer.why})`;
    case 'closed':
      return 'no answer: the channel closed';
    case 'timeout':
      return answer.raw === undefined
        ? 'no answer before the step timeout'
        : `no whole answer before the step timeout (${Buffer.byteLength(answer.raw, 'utf8')} bytes of an unfinished one had arrived)`;
  }
}
