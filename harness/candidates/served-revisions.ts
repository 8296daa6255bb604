import { BASE_REVISION, type Revision } from '../agent/revisions.js';
import type { CandidateInfo } from './types.js';

/** The MCP revisions a candidate serves to an agent, as its adapter declares them (default: 2025-11-25 alone). */
export const servedRevisions = (info: CandidateInfo): readonly Revision[] => info.revisions ?? [BASE_REVISION];

/**
 * Why a case of `revision` cannot run against the candidate, or undefined when it serves that
 * revision: the agent of such a case speaks nothing else, so the verdict would be the adapter's
 * declaration, not the broker's protection.
 */
export function unservedRevision(info: CandidateInfo, revision: Revision): string | undefined {
  const served = servedRevisions(info);
  if (served.includes(revision)) return undefined;
  return `the case speaks MCP ${revision}, and the candidate's adapter declares it serves ${served.join(' and ')}`;
}
