/**
 * Multi round-trip requests (MCP 2026-07-28, basic/patterns/mrtr.mdx): a server that needs the
 * client's input answers with `resultType: "input_required"`, its requests for input in
 * `inputRequests` (each keyed by the server, each an elicitation/create, sampling/createMessage or
 * roots/list request) and an opaque `requestState`; the client retries the original request with
 * a new id, its answers in `inputResponses` under the same keys, and `requestState` exactly as
 * given. These are the 2026-07-28 form of the server-initiated requests of 2025-11-25.
 */

/** One request for input, as the result carried it (decoded losslessly: params may hold exact numbers). */
export interface InputRequest {
  key: string;
  method: string;
  params: unknown;
}

/** True for an interim result asking for input; a result without `resultType` is complete (changelog, major change 8). */
export const isInputRequired = (result: Record<string, unknown>): boolean => result.resultType === 'input_required';

/** The requests for input an `input_required` result carries, in the order it lists them; a malformed entry has method ''. */
export function inputRequestsOf(result: Record<string, unknown>): InputRequest[] {
  const requests = result.inputRequests;
  if (requests === null || typeof requests !== 'object' || Array.isArray(requests)) return [];
  return Object.entries(requests as Record<string, unknown>).map(([key, request]) => {
    const { method, params } = (request ?? {}) as { method?: unknown; params?: unknown };
    return { key, method: typeof method === 'string' ? method : '', params };
  });
}

/**
 * The params of the retry: the original request's, with an answer under the key of each request
 * the agent answers (`answer` gives undefined for one it declines, which is left out: an
 * InputResponse has no error form) and the server's `requestState` as it came. A result without
 * `requestState` gets none back, as the spec requires.
 */
export function retryParams(
  original: Record<string, unknown>,
  result: Record<string, unknown>,
  answer: (method: string) => Record<string, unknown> | undefined,
): Record<string, unknown> {
  const { inputResponses: _previous, requestState: _state, ...rest } = original;
  return {
    ...rest,
    ...(result.inputRequests === undefined ? {} : { inputResponses: inputResponsesTo(result, answer) }),
    ...('requestState' in result ? { requestState: result.requestState } : {}),
  };
}

/**
 * The agent's `inputResponses` to the requests for input `result` carries (an `input_required`
 * result, or a task asking for input), keyed as the requests are; one it declines is left out.
 */
export function inputResponsesTo(result: Record<string, unknown>, answer: (method: string) => Record<string, unknown> | undefined): Record<string, unknown> {
  return Object.fromEntries(inputRequestsOf(result).flatMap(({ key, method }) => {
    const given = answer(method);
    return given === undefined ? [] : [[key, given]];
  }));
}

/**
 * A retry the scenario has the agent misuse (a call step's `retry`), to show what a broker lets
 * through of a server's state: a `request_state` the agent sends with the call's first send as
 * if retrying (a forged state); other `arguments` for every retry than the call's first send had
 * (a state transplanted to another call); or `replay`, the call's first send carrying the
 * `inputResponses` and `requestState` of the agent's last retry in the session (a state reused).
 */
export type CraftedRetry = { request_state: string } | { arguments: Record<string, unknown> } | { replay: true };

/** The members of a retry that carry the round trip: what `replay` sends again. */
export type RetryMembers = { inputResponses?: unknown; requestState?: unknown };

/** The retry members of `params`, those it has. */
export const retryMembers = (params: Record<string, unknown>): RetryMembers =>
  Object.fromEntries(['inputResponses', 'requestState'].filter((key) => key in params).map((key) => [key, params[key]]));
