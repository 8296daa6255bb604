import type { FrontDoorCredential } from '../candidates/types.js';

/**
 * The headers a client holding a front door's credential sends: its own, with the credential in
 * place of any header of the same name (HTTP names compare without case), since one request
 * cannot present two values in one header and holding the credential is the point.
 */
export function withCredential(headers: Record<string, string>, credential: FrontDoorCredential | undefined): Record<string, string> {
  if (credential === undefined) return headers;
  const name = credential.header.toLowerCase();
  return { ...Object.fromEntries(Object.entries(headers).filter(([header]) => header.toLowerCase() !== name)), [name]: credential.value };
}
