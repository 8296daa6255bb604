// Guards on how an HTTP server is spoken to. Its answers are third-party bytes from the network:
// a redirect would send the broker to an address nobody vetted, and a body is read into memory
// before it can be parsed.

import type { HttpGuard } from './types.js';

export const noRedirects: HttpGuard = {
  name: 'no-redirects',
  // A redirect is refused rather than checked hop by hop: the operator vetted one URL (HTP-1).
  plan: (plan) => ({ ...plan, followRedirects: false }),
};

export const httpBodyCap: HttpGuard = {
  name: 'http-body-cap',
  // The same bound as a stdio line: one answer, whichever way it is framed (HTP-2).
  plan: (plan, limits) => ({ ...plan, maxBodyBytes: limits.maxMessageBytes }),
};

export const bearerHttpsOnly: HttpGuard = {
  name: 'bearer-https-only',
  // Over plain http anyone on the path reads the header: the token stays home (CRD-2).
  plan: (plan, _limits, url) => (url.protocol === 'https:' ? plan : { ...plan, bearer: undefined }),
};
