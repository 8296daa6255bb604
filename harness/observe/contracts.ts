import type { LedgerRecord } from '../../servers/kit/ledger.js';
import { canonicalJson, sha256Hex } from './canonical.js';
import { listingReplies } from './ledger.js';

/** A tool as the server presented it for review, hashed as docs/call-path.md's audit form does. */
export interface PresentedContract {
  description_sha256: string | null;
  input_schema_sha256: string;
}

/**
 * What the server presented of each tool while in phase `review`, taken from the ledger: the
 * `tools/list` requests it received and the answers it sent to them. This is the contract an
 * operator pinned, observed on the server's side rather than taken from any broker's manifest.
 * The first presentation of a name counts.
 */
export function presentedContracts(records: readonly LedgerRecord[]): { contracts: Map<string, PresentedContract>; problem?: string } {
  const contracts = new Map<string, PresentedContract>();
  for (const { request, reply } of listingReplies(records)) {
    if (request.phase !== 'review') continue;
    if (reply.raw_truncated) return { contracts, problem: `a listing answer of ${reply.bytes} bytes is too long for the ledger to hold` };
    for (const tool of listedTools(reply.raw)) {
      if (typeof tool.name !== 'string' || contracts.has(tool.name)) continue;
      contracts.set(tool.name, {
        description_sha256: typeof tool.description === 'string' ? sha256Hex(tool.description) : null,
        input_schema_sha256: sha256Hex(canonicalJson(tool.inputSchema)),
      });
    }
  }
  return { contracts };
}

/** The tools of one `tools/list` answer, from its raw line; none when it holds no list. */
export function listedTools(raw: string): Array<Record<string, unknown>> {
  try {
    const tools = (JSON.parse(raw) as { result?: { tools?: unknown } }).result?.tools;
    return Array.isArray(tools) ? tools.filter((tool): tool is Record<string, unknown> => tool !== null && typeof tool === 'object') : [];
  } catch {
    return [];
  }
}
