// The start-up guards that shape how a server is spoken to (docs/network.md, HTP-1, HTP-2): what
// each changes in the plan it is given and what it leaves alone. The broker applies them in its
// child process (load/startup.ts), which the scenarios prove; these tests hold each guard's own
// change to the plan in this process, where a mutation of it is seen (docs/mutation.md).

import { describe, expect, it } from 'vitest';
import { resultSizeBound } from '../../src/guards/frame.js';
import { bearerHttpsOnly, httpBodyCap, noRedirects } from '../../src/guards/http.js';
import { ALL_GUARDS } from '../../src/guards/registry.js';
import { DEFAULT_LIMITS } from '../../src/operator/config.js';
import { unguardedHttp } from '../../src/upstream/http.js';

const URL_HTTPS = new URL('https://mcp.example.com/mcp');
const LIMITS = { ...DEFAULT_LIMITS, maxMessageBytes: 12_345 };

describe('http guards', () => {
  it('no-redirects turns following off and changes nothing else', () => {
    expect(noRedirects.plan(unguardedHttp('t-1'), LIMITS, URL_HTTPS)).toEqual({ ...unguardedHttp('t-1'), followRedirects: false });
  });

  it("http-body-cap bounds a body at the operator's message bound, as a stdio line is", () => {
    expect(httpBodyCap.plan(unguardedHttp('t-1'), LIMITS, URL_HTTPS)).toEqual({ ...unguardedHttp('t-1'), maxBodyBytes: 12_345 });
  });

  it('every http guard together: no redirects, a bounded body, the token over https only', () => {
    const planned = (url: URL) => ALL_GUARDS.http.reduce((plan, guard) => guard.plan(plan, LIMITS, url), unguardedHttp('t-1'));
    expect(planned(URL_HTTPS)).toEqual({ followRedirects: false, maxBodyBytes: 12_345, bearer: 't-1' });
    expect(planned(new URL('http://mcp.example.com/mcp'))).toEqual({ followRedirects: false, maxBodyBytes: 12_345, bearer: undefined });
    // Without the guards nothing is bounded: the guards are what makes the difference.
    expect(unguardedHttp('t-1')).toEqual({ followRedirects: true, maxBodyBytes: Number.POSITIVE_INFINITY, bearer: 't-1' });
    expect(bearerHttpsOnly.plan(unguardedHttp(undefined), LIMITS, URL_HTTPS).bearer).toBeUndefined();
  });
});

describe('result-size-bound', () => {
  it("bounds a server's line at the operator's message bound", () => {
    expect(resultSizeBound.lineBound(LIMITS)).toBe(12_345);
    expect(resultSizeBound.lineBound(DEFAULT_LIMITS)).toBe(DEFAULT_LIMITS.maxMessageBytes);
  });
});
