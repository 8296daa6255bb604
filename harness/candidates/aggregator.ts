import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { revisionHeaders } from '../agent/streamable-http.js';

/**
 * The passthrough's several-server mode: a naive aggregator, as a careless gateway is built. It
 * merges the servers' listings as they are, each tool under the rename its gateway-wide table
 * gives its name or `<prefix>_<tool>`, and when two servers offer one name the one listed last wins; it routes each
 * call by that name alone; it takes every change a server announces into the same merged map;
 * and it sends one gateway-wide token (the first the operator mapped to any server's host) to
 * every HTTP server. It inspects nothing. It exists so that every several-server attack can fail.
 */

/** One server as the passthrough's adapter describes it on the command line (`--servers JSON`). */
export interface AggregatedServer {
  name: string;
  /** A server to start, or one to post to. */
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  prefix?: string;
  /** Server tool name → the name the agent sees: one table for every server (passthrough.ts). */
  renames: Record<string, string>;
}

interface Message {
  jsonrpc?: string;
  id?: number | string | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: unknown;
}

type Tool = Record<string, unknown> & { name: string };

/** A line channel to one server: over its stdio, or posted to its URL. */
interface Link {
  send(message: Message): void;
}

export function aggregate(servers: readonly AggregatedServer[], tokens: Record<string, string>): void {
  // One credential for the whole gateway, sent everywhere: what CRD-2 and MSV-4 are about.
  const bearer = Object.values(tokens)[0];
  const pending = new Map<string, (answer: Message) => void>();
  /** Offered name → the server and its own name for the tool; the last server to list it wins. */
  const routes = new Map<string, { server: AggregatedServer; tool: string }>();
  /** Each server's tools under their offered names, in the servers' order. */
  const listed = new Map<string, Tool[]>();
  let nextId = 1;

  const write = (message: Message) => process.stdout.write(`${JSON.stringify(message)}\n`);
  const offered = (server: AggregatedServer, tool: string) => server.renames[tool] ?? (server.prefix === undefined ? tool : `${server.prefix}_${tool}`);

  const links = new Map<string, Link>();
  const request = (server: AggregatedServer, method: string, params: Record<string, unknown> | undefined): Promise<Message> =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(`${server.name}:${id}`, resolve);
      links.get(server.name)!.send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
    });

  // The agent's latest request _meta: in MCP 2026-07-28 every request says its revision and the
  // client's capabilities there, so the aggregator's own listings carry the agent's as it relays them.
  let agentMeta: unknown;
  const relist = async (server: AggregatedServer): Promise<void> => {
    const answer = await request(server, 'tools/list', agentMeta === undefined ? {} : { _meta: agentMeta });
    const tools = ((answer.result?.tools as Tool[] | undefined) ?? []).map((tool) => ({ ...tool, name: offered(server, tool.name) }));
    listed.set(server.name, tools);
    for (const tool of (answer.result?.tools as Tool[] | undefined) ?? []) routes.set(offered(server, tool.name), { server, tool: tool.name });
  };

  const fromServer = (server: AggregatedServer, message: Message) => {
    if (message.method === undefined && message.id !== undefined) {
      const resolve = pending.get(`${server.name}:${String(message.id)}`);
      pending.delete(`${server.name}:${String(message.id)}`);
      resolve?.(message);
      return;
    }
    // A change one server announces is merged in as it comes, over whatever others offered.
    if (message.method === 'notifications/tools/list_changed') void relist(server).then(() => write(message));
    else if (message.method !== undefined && message.id === undefined) write(message);
  };

  for (const server of servers) links.set(server.name, server.url === undefined ? stdioLink(server, fromServer) : urlLink(server, bearer, fromServer));

  const answerAgent = async (message: Message): Promise<void> => {
    const { id, method, params } = message;
    if (params?._meta !== undefined) agentMeta = params._meta;
    // 2026-07-28's server/discover opens a session as initialize did: each server is asked.
    if (method === 'initialize' || method === 'server/discover') {
      const answers = await Promise.all(servers.map((server) => request(server, method, params)));
      // Its map of names is made once every server answered, before the agent can call anything.
      for (const server of servers) await relist(server);
      write({ jsonrpc: '2.0', id, result: answers[0]?.result ?? {} });
    } else if (method === 'tools/list') {
      for (const server of servers) await relist(server);
      // Every server's tools as listed; a name offered twice is the later one's.
      const byName = new Map<string, Tool>();
      for (const server of servers) for (const tool of listed.get(server.name) ?? []) byName.set(tool.name, tool);
      write({ jsonrpc: '2.0', id, result: { tools: [...byName.values()] } });
    } else if (method === 'tools/call') {
      const route = routes.get(String(params?.name));
      if (route === undefined) {
        write({ jsonrpc: '2.0', id, error: { code: -32602, message: `Unknown tool: ${String(params?.name)}` } });
        return;
      }
      const answer = await request(route.server, 'tools/call', { ...params, name: route.tool });
      write({ ...answer, id });
    } else if (method === 'subscriptions/listen') {
      // MCP 2026-07-28: the stream is opened with every server under the agent's own id, as a
      // line relay would, so each server's notices come back tagged as the agent asked.
      for (const server of servers) links.get(server.name)!.send(message);
    } else if (id !== undefined) {
      write({ jsonrpc: '2.0', id, result: {} });
    } else {
      for (const server of servers) links.get(server.name)!.send(message);
    }
  };

  const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  lines.on('line', (line) => {
    let message: Message;
    try {
      message = JSON.parse(line) as Message;
    } catch {
      return;
    }
    void answerAgent(message);
  });
  lines.on('close', () => process.exit(0));
}

function stdioLink(server: AggregatedServer, onMessage: (server: AggregatedServer, message: Message) => void): Link {
  const child = spawn(server.command!, server.args ?? [], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, ...server.env } });
  child.stdin.on('error', () => undefined);
  createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) => {
    try {
      onMessage(server, JSON.parse(line) as Message);
    } catch {
      // Not JSON: nothing to route.
    }
  });
  return { send: (message) => child.stdin.write(`${JSON.stringify(message)}\n`) };
}

function urlLink(server: AggregatedServer, bearer: string | undefined, onMessage: (server: AggregatedServer, message: Message) => void): Link {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }) };
  return {
    send(message) {
      const line = JSON.stringify(message);
      void fetch(server.url!, { method: 'POST', headers: { ...headers, ...revisionHeaders(line) }, body: line })
        .then(async (response) => {
          const body = (await response.text()).trim();
          if (body !== '') onMessage(server, JSON.parse(body) as Message);
          else if (!response.ok && message.id !== undefined) onMessage(server, { jsonrpc: '2.0', id: message.id, error: { code: -32000, message: `HTTP ${response.status}` } });
        })
        .catch((error: Error) => {
          if (message.id !== undefined) onMessage(server, { jsonrpc: '2.0', id: message.id, error: { code: -32000, message: error.message } });
        });
    },
  };
}
