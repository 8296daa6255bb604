// The broker's failures, each carrying the exit code the command line contract gives it.

export const EXIT = {
  ok: 0,
  /** audit-verify only: the trail does not verify. */
  tampered: 1,
  usage: 2,
  nothingRegistered: 3,
  upstream: 4,
} as const;

export abstract class BrokerError extends Error {
  abstract readonly exitCode: number;
}

/** A bad command line, configuration or manifest: the operator must fix something. */
export class ConfigError extends BrokerError {
  readonly exitCode = EXIT.usage;
  override readonly name = 'ConfigError';
}

/** The server could not be started or spoken to, or it broke the protocol. */
export class UpstreamError extends BrokerError {
  readonly exitCode = EXIT.upstream;
  override readonly name = 'UpstreamError';
}

/** The server did not answer one request in time; the server itself may still be alive. */
export class RequestTimedOut extends UpstreamError {
  constructor(
    message: string,
    readonly timeoutMs: number,
  ) {
    super(message);
  }
}

/** The server's answer exceeded the hard bound on a message; it was dropped as it arrived. */
export class ResultTooLarge extends UpstreamError {
  constructor(
    message: string,
    readonly maxBytes: number,
  ) {
    super(message);
  }
}

/**
 * The server's answer broke one of the JSON reader's limits (nesting, number of values, length of
 * a string or number): it was read no further, and nothing of it is passed on.
 */
export class ResultOverLimit extends UpstreamError {}

/** The server can no longer be spoken to (it exited, closed its output, broke the protocol or
 * was closed by the broker). */
export class ServerGone extends UpstreamError {
  constructor(
    message: string,
    readonly serverId: string,
    /** Whether the request had been written to the server before it went. */
    readonly dispatched: boolean,
    /**
     * Whether the broker closed the connection itself (the agent left, or a drift guard ended the
     * session) before anything else ended it: the request failed for that alone.
     */
    readonly closedByBroker = false,
  ) {
    super(message);
  }
}

/** A listing guard refused the server's whole tool listing. */
export class ListingRefused extends BrokerError {
  readonly exitCode = EXIT.upstream;
  override readonly name = 'ListingRefused';
  constructor(
    readonly guard: string,
    readonly reason: string,
  ) {
    super(`guard ${guard} refused the listing: ${reason}`);
  }
}
