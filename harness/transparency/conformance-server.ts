// The server the official MCP conformance suite (@modelcontextprotocol/conformance) is run against,
// direct and through a candidate: every tool, resource, prompt and behaviour its server scenarios
// ask for, written here from the requirements each scenario states (`conformance list` and the
// scenarios' own descriptions), on the SDK's own Server and Streamable HTTP transport. The suite's
// repository has an example server of its own; it is not shipped in the npm package, and this
// repository does not copy it.

import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  CreateMessageResultSchema,
  ElicitResultSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';

/** A 1×1 PNG, the smallest image the scenarios accept. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** A WAV file of eight silent 8-bit mono samples at 8 kHz: a RIFF header and its data. */
function silentWav(): string {
  const samples = Buffer.alloc(8, 0x80);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + samples.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(8000, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(samples.length, 40);
  return Buffer.concat([header, samples]).toString('base64');
}

const noArguments = { type: 'object', properties: {} } as const;
const stringArgument = (name: string, description: string) => ({ type: 'object', properties: { [name]: { type: 'string', description } }, required: [name] }) as const;

const TOOLS: Tool[] = [
  { name: 'test_simple_text', description: 'Returns a simple text.', inputSchema: noArguments },
  { name: 'test_image_content', description: 'Returns an image.', inputSchema: noArguments },
  { name: 'test_audio_content', description: 'Returns audio.', inputSchema: noArguments },
  { name: 'test_embedded_resource', description: 'Returns an embedded resource.', inputSchema: noArguments },
  { name: 'test_multiple_content_types', description: 'Returns text, an image and an embedded resource.', inputSchema: noArguments },
  { name: 'test_tool_with_logging', description: 'Sends three log messages while it runs.', inputSchema: noArguments },
  { name: 'test_tool_with_progress', description: 'Reports progress while it runs.', inputSchema: noArguments },
  { name: 'test_error_handling', description: 'Always reports an error.', inputSchema: noArguments },
  { name: 'test_sampling', description: 'Asks the client for a sampled message.', inputSchema: stringArgument('prompt', 'The prompt to send') },
  { name: 'test_elicitation', description: 'Asks the user for input.', inputSchema: stringArgument('message', 'The message to show') },
  { name: 'test_elicitation_sep1034_defaults', description: 'Asks for input with a default for each primitive type.', inputSchema: noArguments },
  { name: 'test_elicitation_sep1330_enums', description: 'Asks for input with each kind of enumeration.', inputSchema: noArguments },
  { name: 'test_reconnection', description: 'Closes its event stream before it answers.', inputSchema: noArguments },
  {
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features',
    // SEP-1613's keywords, and SEP-2106's composition, conditional and anchor keywords (the
    // suite's json-schema-2020-12 scenario from 0.2.0 checks that each reaches the client).
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { address: { $anchor: 'address', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
      allOf: [{ anyOf: [{ required: ['name'] }, { required: ['address'] }] }],
      if: { required: ['address'] },
      then: { properties: { address: { required: ['city'] } } },
      else: { required: ['name'] },
    },
  },
];

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });

/** How long a tool that reports as it goes waits between two reports. */
const STEP_MS = 50;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The form of test_elicitation_sep1034_defaults: a default for each primitive type. */
const DEFAULTS_FORM = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'User name', default: 'John Doe' },
    age: { type: 'integer', description: 'User age', default: 30 },
    score: { type: 'number', description: 'User score', default: 95.5 },
    status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
    verified: { type: 'boolean', description: 'Verification status', default: true },
  },
} as const;

/** The form of test_elicitation_sep1330_enums: the five enumeration shapes of SEP-1330. */
const ENUMS_FORM = {
  type: 'object',
  properties: {
    untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    titledSingle: { type: 'string', oneOf: [{ const: 'value1', title: 'First Option' }, { const: 'value2', title: 'Second Option' }] },
    legacyEnum: { type: 'string', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
    untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
    titledMulti: { type: 'array', items: { anyOf: [{ const: 'value1', title: 'First Choice' }, { const: 'value2', title: 'Second Choice' }] } },
  },
} as const;

/**
 * One session's server, every handler the suite's scenarios need: the SDK keeps a Server per
 * transport. Served over HTTP here, and over stdio by conformance-stdio.ts.
 */
export function conformanceMcpServer(): Server {
  const server = new Server(
    { name: 'gauntlet-conformance-server', version: '1.0.0' },
    { capabilities: { tools: {}, resources: { subscribe: true }, prompts: {}, logging: {}, completions: {} } },
  );
  const subscribed = new Set<string>();

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const args = request.params.arguments ?? {};
    switch (request.params.name) {
      case 'test_simple_text':
        return text('This is a simple text response for testing.');
      case 'test_image_content':
        return { content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] };
      case 'test_audio_content':
        return { content: [{ type: 'audio', data: silentWav(), mimeType: 'audio/wav' }] };
      case 'test_embedded_resource':
        return { content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }] };
      case 'test_multiple_content_types':
        return {
          content: [
            { type: 'text', text: 'Multiple content types test:' },
            { type: 'image', data: PNG, mimeType: 'image/png' },
            { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: '{"test":"data","value":123}' } },
          ],
        };
      case 'test_tool_with_logging':
        for (const [i, data] of ['Tool execution started', 'Tool processing data', 'Tool execution completed'].entries()) {
          if (i > 0) await pause(STEP_MS);
          await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data } });
        }
        return text('Tool with logging executed successfully');
      case 'test_tool_with_progress': {
        const progressToken = request.params._meta?.progressToken;
        for (const [i, progress] of [0, 50, 100].entries()) {
          if (i > 0) await pause(STEP_MS);
          if (progressToken !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress, total: 100 } });
        }
        return text('Tool with progress executed successfully');
      }
      case 'test_error_handling':
        return { isError: true, content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }] };
      case 'test_sampling': {
        const answer = await extra.sendRequest(
          { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: String(args.prompt) } }], maxTokens: 100 } },
          CreateMessageResultSchema,
        );
        const reply = answer.content.type === 'text' ? answer.content.text : `[${answer.content.type}]`;
        return text(`LLM response: ${reply}`);
      }
      case 'test_elicitation': {
        const requestedSchema = {
          type: 'object',
          properties: { username: { type: 'string', description: "User's response" }, email: { type: 'string', description: "User's email address" } },
          required: ['username', 'email'],
        } as const;
        const answer = await extra.sendRequest({ method: 'elicitation/create', params: { message: String(args.message), requestedSchema } }, ElicitResultSchema);
        return text(`User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`);
      }
      case 'test_elicitation_sep1034_defaults':
      case 'test_elicitation_sep1330_enums': {
        const requestedSchema = request.params.name === 'test_elicitation_sep1034_defaults' ? DEFAULTS_FORM : ENUMS_FORM;
        const answer = await extra.sendRequest({ method: 'elicitation/create', params: { message: 'Please answer the form.', requestedSchema } }, ElicitResultSchema);
        return text(`Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`);
      }
      case 'test_reconnection':
        // SEP-1699: the server may end a call's stream before its answer; the client resumes with
        // Last-Event-ID and receives the answer from the event store.
        await pause(STEP_MS);
        extra.closeSSEStream?.();
        await pause(2 * STEP_MS);
        return text('Reconnection test completed successfully');
      case 'json_schema_2020_12_tool':
        return text(`Received ${JSON.stringify(args)}`);
      default:
        return { isError: true, content: [{ type: 'text', text: `Unknown tool: ${request.params.name}` }] };
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: [
      { uri: 'test://static-text', name: 'Static text', description: 'A static text resource', mimeType: 'text/plain' },
      { uri: 'test://static-binary', name: 'Static binary', description: 'A static binary resource (a PNG)', mimeType: 'image/png' },
      { uri: 'test://watched-resource', name: 'Watched resource', description: 'A resource to subscribe to', mimeType: 'text/plain' },
    ],
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [{ uriTemplate: 'test://template/{id}/data', name: 'Data by id', description: 'Data for an id', mimeType: 'application/json' }],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, ({ params: { uri } }) => {
    if (uri === 'test://static-text') return { contents: [{ uri, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }] };
    if (uri === 'test://static-binary') return { contents: [{ uri, mimeType: 'image/png', blob: PNG }] };
    if (uri === 'test://watched-resource') return { contents: [{ uri, mimeType: 'text/plain', text: 'Watched.' }] };
    const id = /^test:\/\/template\/([^/]+)\/data$/.exec(uri)?.[1];
    if (id !== undefined) return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) }] };
    throw new Error(`Resource not found: ${uri}`);
  });
  server.setRequestHandler(SubscribeRequestSchema, ({ params: { uri } }) => (subscribed.add(uri), {}));
  server.setRequestHandler(UnsubscribeRequestSchema, ({ params: { uri } }) => (subscribed.delete(uri), {}));

  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: [
      { name: 'test_simple_prompt', description: 'A prompt without arguments' },
      {
        name: 'test_prompt_with_arguments',
        description: 'A prompt with two arguments',
        arguments: [
          { name: 'arg1', description: 'First test argument', required: true },
          { name: 'arg2', description: 'Second test argument', required: true },
        ],
      },
      { name: 'test_prompt_with_embedded_resource', description: 'A prompt embedding a resource', arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }] },
      { name: 'test_prompt_with_image', description: 'A prompt with an image' },
    ],
  }));
  server.setRequestHandler(GetPromptRequestSchema, ({ params: { name, arguments: args = {} } }) => {
    const user = (content: Record<string, unknown>) => ({ role: 'user' as const, content });
    switch (name) {
      case 'test_simple_prompt':
        return { messages: [user({ type: 'text', text: 'This is a simple prompt for testing.' })] };
      case 'test_prompt_with_arguments':
        return { messages: [user({ type: 'text', text: `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'` })] };
      case 'test_prompt_with_embedded_resource':
        return {
          messages: [
            user({ type: 'resource', resource: { uri: args.resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } }),
            user({ type: 'text', text: 'Please process the embedded resource above.' }),
          ],
        };
      case 'test_prompt_with_image':
        return { messages: [user({ type: 'image', data: PNG, mimeType: 'image/png' }), user({ type: 'text', text: 'Please analyze the image above.' })] };
      default:
        throw new Error(`Unknown prompt: ${name}`);
    }
  });
  server.setRequestHandler(CompleteRequestSchema, ({ params: { argument } }) => {
    const values = ['paris', 'park', 'party'].filter((value) => value.startsWith(argument.value));
    return { completion: { values, total: values.length, hasMore: false } };
  });
  return server;
}

/** Serves every session on one loopback port, refusing a rebound Host or a foreign Origin (the suite's dns-rebinding scenario). */
export async function startConformanceServer(): Promise<{ url: string; close(): Promise<void> }> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  let port = 0;
  const allowedHosts = () => [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
  const http = createServer((request: IncomingMessage, response: ServerResponse) => {
    const session = request.headers['mcp-session-id'];
    let transport = typeof session === 'string' ? transports.get(session) : undefined;
    if (transport === undefined) {
      // A request without a known session starts one: the SDK answers anything but initialize 400.
      const fresh = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (id) => void transports.set(id, fresh),
        eventStore: new InMemoryEventStore(),
        retryInterval: 500,
        enableDnsRebindingProtection: true,
        allowedHosts: allowedHosts(),
        allowedOrigins: allowedHosts().map((host) => `http://${host}`),
      });
      fresh.onclose = () => void (fresh.sessionId !== undefined && transports.delete(fresh.sessionId));
      transport = fresh;
      void conformanceMcpServer().connect(fresh);
    }
    void transport.handleRequest(request, response);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const address = http.address();
  if (address === null || typeof address === 'string') throw new Error('the conformance server has no port');
  port = address.port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async close() {
      await Promise.all([...transports.values()].map((transport) => transport.close()));
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
