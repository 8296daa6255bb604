// Name resolution as one function, shared by the address guard's check and the HTTP client's
// dials, so that both judge what the same resolver says and tests can stand in for DNS.

import { lookup } from 'node:dns/promises';

export interface Resolved {
  readonly address: string;
  /** 4 or 6. */
  readonly family: number;
}

/** Every address a name resolves to; rejects when it does not resolve. */
export type Resolver = (name: string) => Promise<readonly Resolved[]>;

/** The system's resolver (hosts file, then DNS), every address in the order it gives them. */
export const systemResolver: Resolver = (name) => lookup(name, { all: true, verbatim: true });
