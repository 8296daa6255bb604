import { isLosslessNumber } from 'lossless-json';
import { isInputRequired } from './input-required.js';

/**
 * The caching hints of one result the agent received in 2026-07-28 (server/utilities/caching.mdx):
 * what it was told about how long, and for whom, the answer may be kept. Every result is kept,
 * hinted or not, so the judge can tell a result that carried none from one never received.
 */
export interface ReceivedHints {
  /** The method of the request the result answered. */
  method: string;
  /** An `input_required` interim result, which "carries no caching hints". */
  interim: boolean;
  /** The answer to a retry (its request carried `inputResponses` or `requestState`), which "MUST NOT be cached". */
  retry: boolean;
  /** `ttlMs` as written: a number's literal (lossless, so 2^53 + 1 stays itself), or another value's JSON (a string quoted); absent, none. */
  ttlMs?: string;
  /** `cacheScope` as written: a string's value, or another value's JSON; absent, none. */
  cacheScope?: string;
}

/** The hints of `result`, the answer to a request of `method` sent with `params`. */
export function hintsOf(method: string, params: unknown, result: Record<string, unknown>): ReceivedHints {
  const sent = typeof params === 'object' && params !== null ? (params as Record<string, unknown>) : {};
  return {
    method,
    interim: isInputRequired(result),
    retry: 'inputResponses' in sent || 'requestState' in sent,
    ...('ttlMs' in result ? { ttlMs: isLosslessNumber(result.ttlMs) ? result.ttlMs.toString() : JSON.stringify(result.ttlMs) } : {}),
    ...('cacheScope' in result ? { cacheScope: typeof result.cacheScope === 'string' ? result.cacheScope : JSON.stringify(result.cacheScope) } : {}),
  };
}

