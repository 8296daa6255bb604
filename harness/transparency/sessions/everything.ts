import { call, LISTINGS, request, type SessionScript } from '../script.js';

const DOC = 'demo://resource/static/document/features.md';
const TEXT_TEMPLATE = 'demo://resource/dynamic/text/{resourceId}';

/**
 * server-everything, every feature it offers: each tool with valid arguments (the capability-gated
 * ones too: the agent declares sampling, form and URL elicitation and roots), its resources,
 * templates, subscriptions, prompts, completions and logging level. Over stdio and over
 * Streamable HTTP (SSE answers).
 */
export const everythingSession: SessionScript = {
  server: 'everything',
  transports: ['stdio', 'http'],
  side: () => ({
    sampling: { reply: 'A two-line summary of the transparency check.' },
    elicitation: { form: true, url: true, answer: { action: 'decline' } },
    roots: [{ uri: 'file:///transparency/workspace', name: 'workspace' }],
  }),
  readListed: true,
  skipped: {
    'get-env': "its answer is the server process's whole environment, which each broker sets as it must (the operator's variables, its own launcher's): no two routes give the same, and the harness's environment is not content to compare",
    'simulate-research-query': 'taskSupport "required": it runs only as a task (SEP-1686), whose id and polled status depend on timing; no broker-neutral operator setting covers tasks yet',
  },
  operations: () => [
    ...LISTINGS,
    request('ping', {}),
    request('logging/setLevel', { level: 'info' }),
    call('echo', { message: 'hello through the broker' }),
    call('get-sum', { a: 2, b: 40 }),
    call('get-annotated-message', { messageType: 'success', includeImage: false }),
    call('get-annotated-message', { messageType: 'error', includeImage: true }, { as: 'with-image' }),
    call('get-resource-links', { count: 2 }),
    call('get-resource-reference', { resourceType: 'Text', resourceId: 1 }),
    call('get-resource-reference', { resourceType: 'Blob', resourceId: 2 }, { as: 'blob' }),
    call('get-structured-content', { location: 'Chicago' }),
    call('get-tiny-image', {}),
    call('gzip-file-as-resource', { name: 'note.txt.gz', data: 'data:text/plain;base64,aGVsbG8gdHJhbnNwYXJlbmN5', outputType: 'resourceLink' }),
    call('gzip-file-as-resource', { name: 'inline.txt.gz', data: 'data:text/plain;base64,aW5saW5l', outputType: 'resource' }, { as: 'inline' }),
    call('toggle-simulated-logging', {}),
    call('toggle-simulated-logging', {}, { as: 'off' }),
    call('toggle-subscriber-updates', {}),
    call('toggle-subscriber-updates', {}, { as: 'off' }),
    call('trigger-long-running-operation', { duration: 0.2, steps: 2 }, { progress: true }),
    call('get-roots-list', {}),
    call('trigger-sampling-request', { prompt: 'Summarise the transparency check.', maxTokens: 50 }),
    call('trigger-elicitation-request', {}),
    call('trigger-url-elicitation', { url: 'https://example.com/consent', elicitationId: 'transparency-elicitation' }),
    request('resources/read', { uri: 'demo://resource/dynamic/text/3' }, 'dynamic-text'),
    request('resources/read', { uri: 'demo://resource/dynamic/blob/4' }, 'dynamic-blob'),
    request('resources/subscribe', { uri: DOC }),
    request('resources/unsubscribe', { uri: DOC }),
    request('prompts/get', { name: 'simple-prompt' }, 'simple-prompt'),
    request('prompts/get', { name: 'args-prompt', arguments: { city: 'Lyon', state: 'Rhone' } }, 'args-prompt'),
    request('prompts/get', { name: 'completable-prompt', arguments: { department: 'Engineering', name: 'Alice' } }, 'completable-prompt'),
    request('prompts/get', { name: 'resource-prompt', arguments: { resourceType: 'Text', resourceId: '2' } }, 'resource-prompt'),
    request('completion/complete', { ref: { type: 'ref/prompt', name: 'completable-prompt' }, argument: { name: 'department', value: 'E' } }, 'prompt'),
    request(
      'completion/complete',
      { ref: { type: 'ref/prompt', name: 'completable-prompt' }, argument: { name: 'name', value: '' }, context: { arguments: { department: 'Engineering' } } },
      'prompt-context',
    ),
    request('completion/complete', { ref: { type: 'ref/resource', uri: TEXT_TEMPLATE }, argument: { name: 'resourceId', value: '1' } }, 'template'),
  ],
};
