// The passthrough's credentials, as naively as a client picks them (CRD-1, CRD-2).

/**
 * The token a naive client sends: the one written in its configuration if any, else the first
 * mapped to a host the URL's hostname ends with. That is the unanchored suffix match of many a
 * cookie-jar bug: it sends `mcp.example.test`'s token to `api.mcp.example.test` and to
 * `evilmcp.example.test` alike, and over any scheme.
 */
export function naiveToken(hostname: string, tokens: Record<string, string>, configured: string | undefined): string | undefined {
  if (configured !== undefined) return configured;
  return Object.entries(tokens).find(([host]) => hostname.endsWith(host))?.[1];
}
