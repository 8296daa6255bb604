// How a call the agent may not make now is answered: a tool result with isError set, a text block
// that starts with the code, and the code again in structuredContent for a program to read
// (docs/call-path.md). A tool the agent may not see at all is not refused this way: it is
// answered exactly as a name that exists nowhere, so the answer does not reveal it exists.

import { object, plain } from '../json/tree.js';
import type { JsonObject, Plain, RefusalCode, ToolRefusal } from '../types.js';

export function refusal(code: RefusalCode, sentence: string, fields: Readonly<Record<string, Plain>>): ToolRefusal {
  return { code, sentence, fields };
}

/**
 * A rejection after dispatch (docs/result-path.md): the tool already ran and its output is not
 * shown. The agent is told so in words and in fields, because retrying would run the side
 * effect again.
 */
export function afterDispatch(code: RefusalCode, sentence: string, fields: Readonly<Record<string, Plain>> = {}): ToolRefusal {
  return refusal(code, `the call already ran, and must not be retried: ${sentence}`, { already_ran: true, retry: false, ...fields });
}

/** The tool result that carries a refusal to the agent. */
export function toolError({ code, sentence, fields }: ToolRefusal): JsonObject {
  return object([
    ['content', plain([{ type: 'text', text: `${code}: ${sentence}` }])],
    ['isError', plain(true)],
    ['structuredContent', plain({ code, ...fields })],
  ]);
}
