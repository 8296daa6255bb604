// The credential the operator has the front door require of every client (docs/front-door.md).
// It comes from the broker's own environment only, as the server tokens do: a command line is
// visible to every user of the machine, a configuration file to whoever can write it. A client
// presents it as `Authorization: Bearer <token>`; it is compared by its SHA-256, in constant time,
// never written anywhere, and never reaches a Session, so it cannot reach a server.

import { createHash, timingSafeEqual } from 'node:crypto';
import { ConfigError } from '../errors.js';

export const FRONT_DOOR_TOKEN_VARIABLE = 'GAUNTLET_BROKER_FRONT_DOOR_TOKEN';

/** Below this a token could be guessed by trying: 128 bits written in base64url. */
const MIN_TOKEN_CHARS = 22;
/** What an HTTP header carries after `Bearer `: RFC 6750's b64token. */
const BEARER_TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

function digestOf(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

export class FrontDoorCredential {
  private readonly expected: Buffer;

  constructor(token: string) {
    this.expected = digestOf(`Bearer ${token}`);
  }

  /** Whether an Authorization header presents the token. */
  admits(authorization: string | undefined): boolean {
    return authorization !== undefined && timingSafeEqual(digestOf(authorization), this.expected);
  }
}

/**
 * The operator's credential, or undefined when none is set. A token too short to be safe or one a
 * header cannot carry refuses the start, naming the variable and never the value.
 */
export function readFrontDoorCredential(env: NodeJS.ProcessEnv): FrontDoorCredential | undefined {
  const token = env[FRONT_DOOR_TOKEN_VARIABLE];
  if (token === undefined || token === '') return undefined;
  if (!BEARER_TOKEN.test(token)) throw new ConfigError(`${FRONT_DOOR_TOKEN_VARIABLE} is not a token an Authorization header can carry (letters, digits and -._~+/ then any =)`);
  if (token.length < MIN_TOKEN_CHARS) throw new ConfigError(`${FRONT_DOOR_TOKEN_VARIABLE} is shorter than ${MIN_TOKEN_CHARS} characters: a credential that short can be guessed`);
  return new FrontDoorCredential(token);
}
