import type { RequestRecord } from '../../servers/kit/ledger.js';
import type { SessionSpec, UpstreamCommand, UpstreamUrl } from '../candidates/types.js';

/** The HTTP methods of MCP's Streamable HTTP transport at its endpoint (send, stream, end a session). */
const TRANSPORT_METHODS: ReadonlySet<string> = new Set(['POST', 'GET', 'DELETE']);

const byUrl = (upstream: UpstreamCommand | UpstreamUrl): upstream is UpstreamUrl => 'url' in upstream;

/**
 * The paths of the MCP endpoints the operator named: every URL upstream's path. A broker's other
 * requests to the same server (OAuth discovery under `/.well-known/`, client registration) go
 * elsewhere, and say nothing about whether the MCP traffic carried what it must.
 */
export function mcpEndpointPaths(spec: Pick<SessionSpec, 'upstream' | 'servers'>): ReadonlySet<string> {
  const upstreams = [spec.upstream, ...(spec.servers ?? []).map((server) => server.upstream)].filter((upstream) => upstream !== undefined);
  const paths = new Set<string>();
  for (const upstream of upstreams.filter(byUrl)) {
    // The operator's URL may be one no broker accepts (`ftp:`, a bad host); its path still names the endpoint.
    if (URL.canParse(upstream.url)) paths.add(new URL(upstream.url).pathname);
  }
  return paths;
}

/**
 * Whether a request the server received was MCP traffic: a transport method at an endpoint the
 * operator named. The ledger records a request before its body is read, so its path and method
 * are what tell it apart from the broker's discovery and registration requests.
 */
export const isMcpRequest = (request: Pick<RequestRecord, 'method' | 'path'>, endpoints: ReadonlySet<string>): boolean =>
  TRANSPORT_METHODS.has(request.method) && endpoints.has(request.path.split('?', 1)[0]!);

/** A request in words for a report: `GET /.well-known/oauth-protected-resource`. */
export const requestText = (request: Pick<RequestRecord, 'method' | 'path'>): string => `${request.method} ${request.path}`;
