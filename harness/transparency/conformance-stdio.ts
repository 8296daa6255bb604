// The conformance server over stdio, for a candidate that starts its server from a command and
// cannot dial one by URL (mcp-proxy, supergateway): the same handlers as conformance-server.ts,
// whose HTTP server the suite's direct run speaks to. Through such a candidate, what the suite
// checks of the HTTP transport itself (sessions, resumption, DNS-rebinding protection) is the
// candidate's own front door's.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { conformanceMcpServer } from './conformance-server.js';

await conformanceMcpServer().connect(new StdioServerTransport());
