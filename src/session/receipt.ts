// The receipt a forwarded call's result carries: which tool ran (as the agent knows it), under
// which permission, that what the server returned is untrusted, and how its data is classified.
// The broker writes it itself; a receipt the server put in its own _meta is replaced, because the
// server's word about what ran is exactly what a receipt must not rest on.

import { member, object, plain } from '../json/tree.js';
import type { JsonValue, Plain, Receipt } from '../types.js';

export const RECEIPT_KEY = 'io.mcp-gauntlet/receipt';

/** The receipt as the agent sees it, and as the audit trail records it. */
export function receiptJson(receipt: Receipt): Plain {
  return {
    tool: receipt.tool,
    permission: receipt.permission ?? null,
    trust: 'untrusted',
    data_classification: receipt.dataClassification,
  };
}

/**
 * The result with the receipt merged into its `_meta`; every other part stays as received, in
 * its order. A result that is not an object is not a tool result and is passed on untouched.
 */
export function withReceipt(result: JsonValue, receipt: Receipt): JsonValue {
  if (result.kind !== 'object') return result;
  const stamp = plain(receiptJson(receipt));
  const meta = member(result, '_meta');
  const kept = meta?.kind === 'object' ? meta.entries.filter(([key]) => key !== RECEIPT_KEY) : [];
  const stamped = object([...kept, [RECEIPT_KEY, stamp]]);
  // A _meta that is not an object is not MCP's; the broker's own takes its place.
  if (meta === undefined) return object([...result.entries, ['_meta', stamped]]);
  return object(result.entries.map(([key, value]) => [key, key === '_meta' ? stamped : value]));
}
