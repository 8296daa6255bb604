/**
 * Knobs: the named misbehaviours a kit server is composed from (docs/hostile-servers.md).
 * They arrive as `key=value` strings, from a catalogue preset and the command line, and are
 * checked here once, at start: an unknown knob or bad value must stop the server before it
 * says anything, rather than quietly run some other scenario.
 */
import { isIP } from 'node:net';
import { ECHO_ENCODINGS, type EnvEcho } from './echo.js';
import { DESCRIPTION_FAMILIES, DESCRIPTION_PRESETS, type DescriptionPreset } from './descriptions.js';
import { ERROR_PRESETS, type ErrorPreset } from './errors.js';
import { ICON_PRESETS, type IconPreset, ORIGIN_ICON_PRESETS } from './icons.js';
import { ASK_PRESET_NAMES, type AskPreset, NOTIFY_PRESET_NAMES, type NotifyPreset } from './initiated.js';
import { ASSIGNED_IDS, type AssignedIds } from './notes.js';
import {
  COMPLETION_MODES,
  type CompletionMode,
  FEATURE_DESCRIPTIONS,
  type FeatureDescription,
  PROMPT_MESSAGES,
  PROMPT_NAMES,
  type PromptMessages,
  RESOURCE_CONTENTS,
  RESOURCE_NAMES,
  type ResourceContents,
} from './feature-presets.js';
import { OAUTH_MODES, type OauthMode } from './oauth.js';
import { OUTPUT_PRESETS, OUTPUT_SCHEMA_PRESETS, type OutputPreset, type OutputSchemaPreset } from './outputs.js';
import { RESULT_FAMILIES, RESULT_PRESETS, type ResultPreset } from './results.js';
import { DEFAULT_CANARY_PORT, SCHEMA_FAMILIES, SCHEMA_PRESETS, type SchemaPreset } from './schemas.js';
import { HANDSHAKE, REVISIONS, type Revision, STATELESS } from './revision.js';
import { REQUEST_STATE_MODES, type RequestStateMode } from './mrtr.js';
import { type CacheHint, HONEST_CACHE_HINT } from './result-form.js';
import { MAX_TASK_POLLS, TASK_ID_MODES, type TaskIdMode } from './tasks.js';
import { PARAM_HEADER_MODES, type ParamHeaderMode } from './request-headers.js';
import type { Sized, SizeRange } from './sized.js';
import { type AnnotationPreset, ANNOTATION_TEXT, fillerTool, TASK_SUPPORT, type TaskSupport, TITLES, type TitlePreset, TOOLSETS, type ToolsetName } from './tools.js';

export type CursorMode = 'normal' | 'repeat' | 'endless';

export interface Knobs {
  toolset: ToolsetName;
  /** Tools per page; null puts the whole listing on one page. */
  pageSize: number | null;
  filler: number;
  duplicate: string | null;
  /** `next`: the second copy goes on a page of its own after the last page. */
  duplicatePage: 'same' | 'next';
  cursor: CursorMode;
  runDescription: string | null;
  /** In phase `run` this tool of the set gains a plain sentence widening what it returns. */
  runDescriptionWidened: string | null;
  runSchema: string | null;
  bignum: string | null;
  runReserialise: boolean;
  runDrop: string | null;
  runAdd: string | null;
  /** In phase `run` this tool of the set is listed with a loosened output schema (needs `output.<tool>`). */
  runOutputSchema: string | null;
  /** In phase `run` this tool of the set is listed with another plain title (`RUN_TITLE`). */
  runTitle: string | null;
  /** In phase `run` this tool of the set is listed with `execution.taskSupport` `required`. */
  runExecution: string | null;
  /** In phase `run` this tool of the set is listed with another safe icon (`RUN_ICONS` of icons.ts). */
  runIcons: string | null;
  /** When a line arrives in another phase than the line before it, the server first says its tools changed. */
  notifyListChanged: boolean;
  /** Per tool of the tool set. */
  annotations: Record<string, AnnotationPreset>;
  /** Per tool of the tool set: the annotations it is listed with in phase `run` only. */
  runAnnotations: Record<string, AnnotationPreset>;
  /** Per tool of the tool set: the preset that replaces its description in both phases. */
  descriptions: Record<string, DescriptionPreset>;
  /** Per tool of the tool set: the title (display name) it is listed with in both phases. */
  titles: Record<string, TitlePreset>;
  /** Per tool of the tool set: the `execution.taskSupport` it is listed with in both phases. */
  executions: Record<string, TaskSupport>;
  /** Per tool of the tool set: the `icons` it is listed with in both phases (servers/kit/icons.ts). */
  icons: Record<string, IconPreset>;
  /** Over HTTP, the origin the server is reached at, set once it listens (http.ts); null over stdio. */
  origin: string | null;
  /** Per tool of the tool set: the preset that replaces its input schema in both phases. */
  schemas: Record<string, SchemaPreset>;
  /** The port the URLs in schema presets name. */
  canaryPort: number;
  /** Per tool of the tool set: the name it is listed under instead of its own. */
  names: Record<string, string>;
  /** Calls to this tool of the set are recorded and never answered. */
  hangOnCall: string | null;
  /** Requests of this method (`initialize` or `tools/list`) are recorded and never answered. */
  hangOn: HangableMethod | null;
  /** A call to this tool of the set is recorded, then the server exits without answering. */
  dieOnCall: string | null;
  /** Once it has answered this many tools/call requests the server reads nothing more of its stdin (and lives on). */
  stopReadingAfterCalls: number | null;
  /** Per tool of the tool set: the output schema it is listed with and the result that goes with it. */
  outputs: Record<string, OutputPreset>;
  /** Per tool of the tool set: the variant of its output schema it is listed with (needs `output.<tool>`). */
  outputSchemas: Record<string, OutputSchemaPreset>;
  /** Per tool of the tool set: the preset result that replaces its answer in both phases. */
  results: Record<string, ResultPreset>;
  /** Per tool of the tool set: the JSON-RPC error that answers its calls instead of a result. */
  errors: Record<string, ErrorPreset>;
  /** Per tool of the tool set: the first call its `error.<tool>` or `result.<tool>` preset answers; earlier ones get its own answer. */
  presetFromCall: Record<string, number>;
  /** Per tool of the tool set: the environment variable whose value its result quotes, and how. */
  echoEnv: Record<string, EnvEcho>;
  /** write_note answers as if it stored the note, and stores nothing. */
  lieOnWrite: boolean;
  /** write_note stores every note under this server-chosen id, and answers with it. */
  assignIds: AssignedIds | null;
  /** When stdin closes the server stays alive until it is killed, as a careless server would. */
  linger: boolean;
  /** At launch the server starts a child that ignores SIGTERM and SIGHUP and outlives the server. */
  descendant: boolean;
  /** At the first line it reads, the server kills every process its parent started that names its pid. */
  killWatchdog: boolean;
  /** What the server calls itself in its initialize answer in phase `run`; null keeps the review-time name. */
  runServerName: string | null;
  /** The `instructions` the initialize answer carries; null carries none. */
  instructions: InstructionsPreset | null;
  /** In phase `run` the instructions gain one plain sentence (`WIDENED_INSTRUCTIONS`). */
  runInstructions: boolean;
  /** The version it reports in phase `run`; null keeps the review-time version. */
  runServerVersion: string | null;
  /** Over HTTP: every tools/call is answered with a redirect to the canary instead. */
  httpRedirectCalls: boolean;
  /** Over HTTP: a tools/call reaching any other address the server listens on is redirected to this one. */
  httpRedirectTo: string | null;
  /** Over HTTP: every tools/call is answered with a body past any cap, its size announced or not. */
  httpOversize: OversizeMode | null;
  /** Over HTTP: serve HTTPS with the certificate in servers/kit/tls/. */
  httpTls: boolean;
  /** Over HTTP: every tools/call result gains a text block quoting the headers its request came with. */
  httpEchoHeaders: boolean;
  /** Over HTTP: every response closes its connection, so each request is dialled afresh. */
  httpCloseConnections: boolean;
  /** Over HTTP: every request is answered on an event stream (`answer`), a call's never ending (`endless`). */
  httpSse: SseMode | null;
  /** Over HTTP: every MCP request without a credential is refused 401, and the server describes a sign-in of its choosing (servers/kit/oauth.ts). */
  httpOauth: OauthMode | null;
  /** With `http_oauth`: the registration and token endpoints the metadata names are on this address the server listens on. */
  oauthEndpointsAt: string | null;
  /** Per resource: what reading it returns instead of its own text. */
  resourceContents: Record<string, ResourceContents>;
  /** Per resource: the preset that replaces its description in both phases. */
  resourceDescriptions: Record<string, FeatureDescription>;
  /** Per resource: the `icons` it is listed with in both phases (servers/kit/icons.ts). */
  resourceIcons: Record<string, IconPreset>;
  /** The preset that replaces the resource template's description in both phases. */
  templateDescription: FeatureDescription | null;
  /** In phase `run` this resource's description gains a plain sentence. */
  runResourceDescription: string | null;
  /** In phase `run` a resource nobody reviewed is listed last. */
  runResourceAdd: boolean;
  /** A resource beside the notes whose URI starts with theirs (`file:///notes-private/...`) is listed. */
  siblingResource: boolean;
  /** A second template is listed whose adjacent variables make a regex built from it backtrack. */
  backtrackingTemplate: boolean;
  /** Per prompt: what its messages carry besides its own text. */
  promptMessages: Record<string, PromptMessages>;
  /** Per prompt: the preset that replaces its description in both phases. */
  promptDescriptions: Record<string, FeatureDescription>;
  /** Per prompt: the `icons` it is listed with in both phases (servers/kit/icons.ts). */
  promptIcons: Record<string, IconPreset>;
  /** In phase `run` this prompt's description gains a plain sentence. */
  runPromptDescription: string | null;
  /** How completion/complete misbehaves; null answers honestly. */
  completion: CompletionMode | null;
  /** When a line arrives in another phase than the line before it, the server first says its resources and prompts changed. */
  notifyFeaturesChanged: boolean;
  /** Per tool of the tool set: the requests to the client a call of it starts before it is answered. */
  asks: Record<string, AskPreset>;
  /** Per tool of the tool set: the notifications a call of it makes the server send before its answer. */
  notifies: Record<string, NotifyPreset>;
  /** Per tool of the tool set: the client capability its listing needs the client's initialize to have declared. */
  needs: Record<string, ClientFeature>;
  /** Per tool of the tool set: how many calls of it are held together, each answered once that many have arrived. */
  rendezvous: Record<string, number>;
  /** A line written in pieces gets a `written` ledger record, with the time, at every multiple of this many bytes; null records none. */
  markEvery: number | null;
  /** The MCP revisions the server speaks (servers/kit/revision.ts). */
  revisions: Revision[];
  /** How `ask.<tool>` keeps its 2026-07-28 `requestState` (servers/kit/mrtr.ts). */
  requestState: RequestStateMode;
  /** After this many `server/discover` requests every later one is answered with the run face; null, never. */
  discoverDrift: number | null;
  /** In phase `run` the server's capabilities gain one nobody reviewed (`RUN_CAPABILITY`). */
  runCapability: boolean;
  /** The cache hints of every cacheable 2026-07-28 result (servers/kit/result-form.ts). */
  cacheHint: CacheHint;
  /** `ask.<tool>`'s `input_required` answers and the answers to its retries carry `cacheHint` too. */
  cacheHintRoundTrip: boolean;
  /** Per tool of the tool set: a call of it declaring the tasks extension is a task, done after this many polls (servers/kit/tasks.ts). */
  tasks: Record<string, number>;
  /** How the server names its tasks (servers/kit/tasks.ts). */
  taskIds: TaskIdMode;
  /** What the server does over HTTP with an `Mcp-Param-*` header that disagrees with the body (servers/kit/request-headers.ts). */
  paramHeaders: ParamHeaderMode;
}

/** The client capabilities a tool may be offered under (`needs.<tool>`), as MCP names them. */
export const CLIENT_FEATURES = ['sampling', 'elicitation', 'roots'] as const;
export type ClientFeature = (typeof CLIENT_FEATURES)[number];

/** How an oversized HTTP body is sent: with a Content-Length that says so, or chunked. */
const OVERSIZE_MODES = ['announced', 'streamed'] as const;
export type OversizeMode = (typeof OVERSIZE_MODES)[number];

/**
 * How requests are answered on an event stream: each carries what the server sends while it is
 * pending, then its answer (`answer`); or, for a call, log lines for as long as the client reads
 * and never the answer (`endless`).
 */
const SSE_MODES = ['answer', 'endless', 'outside'] as const;
export type SseMode = (typeof SSE_MODES)[number];

export class KnobError extends Error {}

/** `key=value` arguments → a record; a later assignment to the same key wins. */
export function parseAssignments(args: readonly string[]): Record<string, string> {
  const assigned: Record<string, string> = {};
  for (const arg of args) {
    const eq = arg.indexOf('=');
    if (eq <= 0) throw new KnobError(`expected key=value, got ${JSON.stringify(arg)}`);
    assigned[arg.slice(0, eq)] = arg.slice(eq + 1);
  }
  return assigned;
}

const KNOB_KEYS = [
  'toolset',
  'page_size',
  'filler',
  'duplicate',
  'duplicate_page',
  'cursor',
  'run.description',
  'run.description_widened',
  'run.schema',
  'bignum',
  'run.reserialise',
  'run.drop',
  'run.add',
  'run.output_schema',
  'run.title',
  'run.execution',
  'run.icons',
  'notify_list_changed',
  'annotations.<tool>',
  'run.annotations.<tool>',
  'description.<tool>',
  'title.<tool>',
  'execution.<tool>',
  'icons.<tool>',
  'schema.<tool>',
  'canary_port',
  'name.<tool>',
  'hang_on_call',
  'hang_on',
  'die_on_call',
  'stop_reading_after_calls',
  'output.<tool>',
  'output_schema.<tool>',
  'result.<tool>',
  'error.<tool>',
  'preset_from_call.<tool>',
  'echo_env.<tool>',
  'ask.<tool>',
  'notify.<tool>',
  'needs.<tool>',
  'rendezvous.<tool>',
  'lie_on_write',
  'assign_ids',
  'linger',
  'descendant',
  'kill_watchdog',
  'run.server_name',
  'instructions',
  'run.instructions',
  'run.server_version',
  'http_redirect_calls',
  'http_redirect_to',
  'http_oversize',
  'http_tls',
  'http_echo_headers',
  'http_close_connections',
  'http_sse',
  'http_oauth',
  'oauth_endpoints_at',
  'resource.<resource>',
  'resource_description.<resource>',
  'resource_icons.<resource>',
  'template_description',
  'run.resource_description',
  'run.resource_add',
  'sibling_resource',
  'backtracking_template',
  'prompt.<prompt>',
  'prompt_description.<prompt>',
  'prompt_icons.<prompt>',
  'run.prompt_description',
  'completion',
  'notify_features_changed',
  'mark_every',
  'revisions',
  'request_state',
  'discover_drift',
  'run.capability',
  'cache_hint',
  'task.<tool>',
  'task_ids',
  'param_headers',
];

/** Knobs that take only `1`, switching a misbehaviour on, and the field each sets. */
const FLAG_KNOBS = {
  'run.reserialise': 'runReserialise',
  notify_list_changed: 'notifyListChanged',
  http_redirect_calls: 'httpRedirectCalls',
  http_tls: 'httpTls',
  http_echo_headers: 'httpEchoHeaders',
  http_close_connections: 'httpCloseConnections',
  lie_on_write: 'lieOnWrite',
  linger: 'linger',
  descendant: 'descendant',
  kill_watchdog: 'killWatchdog',
  'run.resource_add': 'runResourceAdd',
  sibling_resource: 'siblingResource',
  backtracking_template: 'backtrackingTemplate',
  notify_features_changed: 'notifyFeaturesChanged',
  'run.instructions': 'runInstructions',
  'run.capability': 'runCapability',
  cache_hint_round_trip: 'cacheHintRoundTrip',
} as const satisfies Record<string, keyof Knobs>;

/** Knobs whose value is one tool of the set, and the field each sets. */
const TOOL_NAME_KNOBS = {
  duplicate: 'duplicate',
  'run.description': 'runDescription',
  'run.description_widened': 'runDescriptionWidened',
  'run.schema': 'runSchema',
  'run.drop': 'runDrop',
  'run.output_schema': 'runOutputSchema',
  'run.title': 'runTitle',
  'run.execution': 'runExecution',
  'run.icons': 'runIcons',
  hang_on_call: 'hangOnCall',
  die_on_call: 'dieOnCall',
} as const satisfies Record<string, keyof Knobs>;

function isKnobOf<T extends object>(table: T, key: string): key is Extract<keyof T, string> {
  return Object.hasOwn(table, key);
}

/** Handshake requests a server can leave unanswered, to test a broker's connect timeout. */
/** The presets of `instructions`: plain advice, or the same with an injection after it. */
export const INSTRUCTIONS_PRESETS = ['plain', 'injection'] as const;
export type InstructionsPreset = (typeof INSTRUCTIONS_PRESETS)[number];

const HANGABLE_METHODS = ['initialize', 'tools/list'] as const;
export type HangableMethod = (typeof HANGABLE_METHODS)[number];

/** The latest call `preset_from_call.<tool>` can name: a few calls into a session, as a scenario makes them. */
const MAX_PRESET_FROM_CALL = 16;

/** The most calls `rendezvous.<tool>` holds together: a few clients at once, never a queue. */
const MAX_RENDEZVOUS = 8;

/** A portable environment variable name. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** MCP's advice for tool names: 1 to 128 of these characters. */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** `name.<tool>` takes any name a broker must cope with, up to this many characters (code points). */
const MAX_LISTED_NAME = 300;

export function resolveKnobs(assigned: Readonly<Record<string, string>>): Knobs {
  const toolset = oneOf('toolset', assigned['toolset'] ?? 'notes', Object.keys(TOOLSETS) as ToolsetName[]);
  const tools = TOOLSETS[toolset];
  const toolNames = tools.map((tool) => tool.name);
  const toolOfSet = (key: string, value: string): string => oneOf(key, value, toolNames);

  const knobs: Knobs = {
    toolset,
    pageSize: null,
    filler: 0,
    duplicate: null,
    duplicatePage: 'same',
    cursor: 'normal',
    runDescription: null,
    runDescriptionWidened: null,
    runSchema: null,
    bignum: null,
    runReserialise: false,
    runDrop: null,
    runAdd: null,
    runOutputSchema: null,
    runTitle: null,
    runExecution: null,
    runIcons: null,
    notifyListChanged: false,
    annotations: {},
    runAnnotations: {},
    descriptions: {},
    titles: {},
    executions: {},
    icons: {},
    origin: null,
    schemas: {},
    canaryPort: DEFAULT_CANARY_PORT,
    names: {},
    hangOnCall: null,
    hangOn: null,
    dieOnCall: null,
    stopReadingAfterCalls: null,
    outputs: {},
    outputSchemas: {},
    results: {},
    errors: {},
    presetFromCall: {},
    echoEnv: {},
    lieOnWrite: false,
    assignIds: null,
    linger: false,
    descendant: false,
    killWatchdog: false,
    runServerName: null,
    instructions: null,
    runInstructions: false,
    runServerVersion: null,
    httpRedirectCalls: false,
    httpRedirectTo: null,
    httpOversize: null,
    httpTls: false,
    httpEchoHeaders: false,
    httpCloseConnections: false,
    httpSse: null,
    httpOauth: null,
    oauthEndpointsAt: null,
    resourceContents: {},
    resourceDescriptions: {},
    resourceIcons: {},
    templateDescription: null,
    runResourceDescription: null,
    runResourceAdd: false,
    siblingResource: false,
    backtrackingTemplate: false,
    promptMessages: {},
    promptDescriptions: {},
    promptIcons: {},
    runPromptDescription: null,
    completion: null,
    notifyFeaturesChanged: false,
    asks: {},
    notifies: {},
    needs: {},
    rendezvous: {},
    markEvery: null,
    revisions: [HANDSHAKE],
    requestState: 'sealed',
    discoverDrift: null,
    runCapability: false,
    cacheHint: HONEST_CACHE_HINT,
    cacheHintRoundTrip: false,
    tasks: {},
    taskIds: 'sealed',
    paramHeaders: 'checked',
  };
  for (const [key, value] of Object.entries(assigned)) {
    if (featureKnob(knobs, key, value)) continue;
    const toolKey = splitToolKey(key);
    if (toolKey !== null) {
      const name = toolOfSet(key, toolKey.tool);
      switch (toolKey.prefix) {
        case 'annotations':
          knobs.annotations[name] = oneOf(key, value, Object.keys(ANNOTATION_TEXT) as AnnotationPreset[]);
          break;
        case 'run.annotations':
          knobs.runAnnotations[name] = oneOf(key, value, Object.keys(ANNOTATION_TEXT) as AnnotationPreset[]);
          break;
        case 'description':
          knobs.descriptions[name] = preset(key, value, DESCRIPTION_PRESETS, DESCRIPTION_FAMILIES);
          break;
        case 'title':
          knobs.titles[name] = oneOf(key, value, Object.keys(TITLES) as TitlePreset[]);
          break;
        case 'execution':
          knobs.executions[name] = oneOf(key, value, TASK_SUPPORT);
          break;
        case 'icons':
          knobs.icons[name] = oneOf(key, value, ICON_PRESETS);
          break;
        case 'schema':
          knobs.schemas[name] = preset(key, value, SCHEMA_PRESETS, SCHEMA_FAMILIES);
          break;
        case 'output':
          knobs.outputs[name] = oneOf(key, value, OUTPUT_PRESETS);
          break;
        case 'output_schema':
          knobs.outputSchemas[name] = oneOf(key, value, OUTPUT_SCHEMA_PRESETS);
          break;
        case 'result':
          knobs.results[name] = preset(key, value, RESULT_PRESETS, RESULT_FAMILIES);
          break;
        case 'error':
          knobs.errors[name] = oneOf(key, value, ERROR_PRESETS);
          break;
        case 'preset_from_call':
          knobs.presetFromCall[name] = integer(key, value, 2, MAX_PRESET_FROM_CALL);
          break;
        case 'echo_env':
          knobs.echoEnv[name] = envEcho(key, value);
          break;
        case 'name':
          knobs.names[name] = validListedName(key, value);
          break;
        case 'ask':
          knobs.asks[name] = oneOf(key, value, ASK_PRESET_NAMES);
          break;
        case 'notify':
          knobs.notifies[name] = oneOf(key, value, NOTIFY_PRESET_NAMES);
          break;
        case 'needs':
          knobs.needs[name] = oneOf(key, value, CLIENT_FEATURES);
          break;
        case 'rendezvous':
          knobs.rendezvous[name] = integer(key, value, 2, MAX_RENDEZVOUS);
          break;
        case 'task':
          knobs.tasks[name] = integer(key, value, 1, MAX_TASK_POLLS);
          break;
      }
      continue;
    }
    if (isKnobOf(FLAG_KNOBS, key)) {
      oneOf(key, value, ['1']);
      knobs[FLAG_KNOBS[key]] = true;
      continue;
    }
    if (isKnobOf(TOOL_NAME_KNOBS, key)) {
      knobs[TOOL_NAME_KNOBS[key]] = toolOfSet(key, value);
      continue;
    }
    switch (key) {
      case 'toolset':
        break;
      case 'page_size':
        knobs.pageSize = integer(key, value, 1);
        break;
      case 'filler':
        knobs.filler = integer(key, value, 0);
        break;
      case 'stop_reading_after_calls':
        knobs.stopReadingAfterCalls = integer(key, value, 1);
        break;
      case 'duplicate_page':
        knobs.duplicatePage = oneOf(key, value, ['same', 'next'] as const);
        break;
      case 'cursor':
        knobs.cursor = oneOf(key, value, ['normal', 'repeat', 'endless'] as const);
        break;
      case 'bignum':
        knobs.bignum = oneOf(key, value, tools.filter((t) => t.integerProperty !== undefined).map((t) => t.name));
        break;
      case 'run.add':
        if (!TOOL_NAME.test(value) || toolNames.includes(value) || value.startsWith('filler_')) {
          throw badValue(key, value, 'a tool name (1-128 of A-Z a-z 0-9 _ - .) not otherwise listed');
        }
        knobs.runAdd = value;
        break;
      case 'canary_port':
        knobs.canaryPort = integer(key, value, 1, 65535);
        break;
      case 'http_redirect_to':
        if (isIP(value) === 0) throw badValue(key, value, 'an IP address the server listens on');
        knobs.httpRedirectTo = value;
        break;
      case 'http_oversize':
        knobs.httpOversize = oneOf(key, value, OVERSIZE_MODES);
        break;
      case 'http_sse':
        knobs.httpSse = oneOf(key, value, SSE_MODES);
        break;
      case 'http_oauth':
        knobs.httpOauth = oneOf(key, value, OAUTH_MODES);
        break;
      case 'oauth_endpoints_at':
        if (isIP(value) === 0) throw badValue(key, value, 'an IP address the server listens on');
        knobs.oauthEndpointsAt = value;
        break;
      case 'hang_on':
        knobs.hangOn = oneOf(key, value, HANGABLE_METHODS);
        break;
      case 'assign_ids':
        knobs.assignIds = oneOf(key, value, Object.keys(ASSIGNED_IDS) as AssignedIds[]);
        break;
      case 'instructions':
        knobs.instructions = oneOf(key, value, INSTRUCTIONS_PRESETS);
        break;
      case 'run.server_name':
        knobs.runServerName = selfReport(key, value);
        break;
      case 'run.server_version':
        knobs.runServerVersion = selfReport(key, value);
        break;
      case 'mark_every':
        knobs.markEvery = integer(key, value, 1);
        break;
      case 'revisions':
        knobs.revisions = revisionList(key, value);
        break;
      case 'request_state':
        knobs.requestState = oneOf(key, value, REQUEST_STATE_MODES);
        break;
      case 'discover_drift':
        knobs.discoverDrift = integer(key, value, 1);
        break;
      case 'cache_hint':
        knobs.cacheHint = cacheHint(key, value);
        break;
      case 'task_ids':
        knobs.taskIds = oneOf(key, value, TASK_ID_MODES);
        break;
      case 'param_headers':
        knobs.paramHeaders = oneOf(key, value, PARAM_HEADER_MODES);
        break;
      default:
        throw new KnobError(`unknown knob ${JSON.stringify(key)}; knobs are ${KNOB_KEYS.join(', ')}`);
    }
  }
  refuseConflicts(knobs, toolNames);
  return knobs;
}

/**
 * The knobs of resources, prompts and completion (docs/hostile-servers.md); false for any other
 * key. A `<resource>` or `<prompt>` is one the kit offers, by its own name.
 */
function featureKnob(knobs: Knobs, key: string, value: string): boolean {
  const [prefix, target] = key.includes('.') && !key.startsWith('run.') ? [key.slice(0, key.indexOf('.')), key.slice(key.indexOf('.') + 1)] : [key, ''];
  switch (prefix) {
    case 'resource':
      knobs.resourceContents[oneOf(key, target, RESOURCE_NAMES)] = oneOf(key, value, RESOURCE_CONTENTS);
      return true;
    case 'resource_description':
      knobs.resourceDescriptions[oneOf(key, target, RESOURCE_NAMES)] = oneOf(key, value, FEATURE_DESCRIPTIONS);
      return true;
    case 'resource_icons':
      knobs.resourceIcons[oneOf(key, target, RESOURCE_NAMES)] = oneOf(key, value, ICON_PRESETS);
      return true;
    case 'prompt_icons':
      knobs.promptIcons[oneOf(key, target, PROMPT_NAMES)] = oneOf(key, value, ICON_PRESETS);
      return true;
    case 'prompt':
      knobs.promptMessages[oneOf(key, target, PROMPT_NAMES)] = oneOf(key, value, PROMPT_MESSAGES);
      return true;
    case 'prompt_description':
      knobs.promptDescriptions[oneOf(key, target, PROMPT_NAMES)] = oneOf(key, value, FEATURE_DESCRIPTIONS);
      return true;
    case 'template_description':
      knobs.templateDescription = oneOf(key, value, FEATURE_DESCRIPTIONS);
      return true;
    case 'run.resource_description':
      knobs.runResourceDescription = oneOf(key, value, RESOURCE_NAMES);
      return true;
    case 'run.prompt_description':
      knobs.runPromptDescription = oneOf(key, value, PROMPT_NAMES);
      return true;
    case 'completion':
      knobs.completion = oneOf(key, value, COMPLETION_MODES);
      return true;
    default:
      return false;
  }
}

/**
 * What knobs need of how the server is run: `http_redirect_to` names an address it listens on
 * (`listen`, null over stdio), so a redirect followed reaches this same server and nothing
 * leaves the addresses the harness gave it.
 */
export function refuseUnlistened(knobs: Knobs, listen: readonly string[] | null): void {
  // Over HTTP a request or notification of the server's own needs a stream to the client: only
  // the event stream a call is answered on, or the one a GET opens (`http_sse`), is one. A server
  // that speaks only 2026-07-28 sends no request of its own: `ask.<tool>` is an answer there (mrtr.ts).
  const asking = knobs.revisions.includes(HANDSHAKE) ? Object.keys(knobs.asks) : [];
  const initiated = [...asking.map((tool) => `ask.${tool}`), ...Object.keys(knobs.notifies).map((tool) => `notify.${tool}`), ...Object.keys(knobs.rendezvous).map((tool) => `rendezvous.${tool}`)];
  if (listen !== null && knobs.httpSse === null && initiated.length > 0) throw new KnobError(`knob ${initiated[0]} is served over stdio, or over HTTP with http_sse`);
  if (listen === null && knobs.httpSse !== null) throw new KnobError('knob http_sse needs --http');
  if (listen === null && knobs.httpOauth !== null) throw new KnobError('knob http_oauth needs --http');
  // A stdio server has no web origin, so no icon of it is on its origin.
  const iconKnobs = [['icons', knobs.icons], ['resource_icons', knobs.resourceIcons], ['prompt_icons', knobs.promptIcons]] as const;
  const onOrigin = iconKnobs.flatMap(([prefix, byName]) => Object.entries(byName).flatMap(([name, preset]) => (ORIGIN_ICON_PRESETS.includes(preset) ? [`${prefix}.${name}=${preset}`] : [])));
  if (listen === null && onOrigin.length > 0) throw new KnobError(`knob ${onOrigin[0]} needs --http: a stdio server has no origin`);
  const target = knobs.httpRedirectTo;
  if (target !== null && !(listen ?? []).includes(target)) {
    throw new KnobError(`knob http_redirect_to=${target} needs --http and ${target} among the addresses the server listens on`);
  }
  const endpoints = knobs.oauthEndpointsAt;
  if (endpoints !== null && (knobs.httpOauth === null || !(listen ?? []).includes(endpoints))) {
    throw new KnobError(`knob oauth_endpoints_at=${endpoints} needs http_oauth, --http and ${endpoints} among the addresses the server listens on`);
  }
}

/** The name a tool of the set is listed under. */
export function listedNameOf(knobs: Knobs, tool: string): string {
  return knobs.names[tool] ?? tool;
}

/**
 * Knobs that are each valid but cannot hold together. A preset schema has no `limit` or `id`
 * of the tool's own for `bignum` to bound, and is not the schema `run.schema` loosens; a call
 * cannot both hang and kill the server; a call answered with an error preset has no result for a
 * result or output preset to replace; a write_note whose answer a preset replaces stores nothing,
 * so there is no storing for `lie_on_write` to fake or `assign_ids` to place; `run.output_schema`
 * loosens the output schema `output.<tool>` lists, so without one there is nothing to loosen; a
 * call is redirected to the canary or to another listener, not both; and a listed name must name
 * one tool only, or a call under it would be for two tools (listing a name twice is what
 * `duplicate` is for).
 */
function refuseConflicts(knobs: Knobs, toolNames: readonly string[]): void {
  for (const tool of Object.keys(knobs.schemas)) {
    for (const [key, target] of [['bignum', knobs.bignum], ['run.schema', knobs.runSchema]] as const) {
      if (target === tool) throw new KnobError(`knobs schema.${tool} and ${key}=${tool} cannot be combined`);
    }
  }
  if (knobs.hangOnCall !== null && knobs.hangOnCall === knobs.dieOnCall) {
    throw new KnobError(`knobs hang_on_call and die_on_call cannot name the same tool (${knobs.hangOnCall})`);
  }
  // An error or an echo is the tool's whole answer, so it goes with no other knob that answers.
  const replacing = [['error', knobs.errors], ['echo_env', knobs.echoEnv], ['rendezvous', knobs.rendezvous]] as const;
  const answering = [...replacing, ['result', knobs.results], ['output', knobs.outputs]] as const;
  for (const [first, byTool] of replacing) {
    for (const [second, other] of answering) {
      for (const tool of Object.keys(byTool)) {
        if (first !== second && other[tool] !== undefined) throw new KnobError(`knobs ${first}.${tool} and ${second}.${tool} cannot be combined`);
      }
    }
  }
  const storing = [
    ['lie_on_write', knobs.lieOnWrite],
    ['assign_ids', knobs.assignIds !== null],
  ] as const;
  for (const [prefix, presets] of [['output', knobs.outputs], ['result', knobs.results], ['error', knobs.errors], ['echo_env', knobs.echoEnv]] as const) {
    for (const [knob, set] of storing) {
      if (set && presets['write_note'] !== undefined) throw new KnobError(`knobs ${knob} and ${prefix}.write_note cannot be combined`);
    }
  }
  if (knobs.requestState === 'naive' && Object.keys(knobs.asks).length === 0) throw new KnobError('knob request_state=naive needs an ask.<tool>, whose requestState it keeps');
  if (knobs.cacheHintRoundTrip && Object.keys(knobs.asks).length === 0) throw new KnobError('knob cache_hint_round_trip needs an ask.<tool>, whose round trip it puts hints on');
  // Tasks are an extension of 2026-07-28's per-request capabilities: no earlier revision declares it.
  const tasked = Object.keys(knobs.tasks);
  if (tasked.length > 0 && !knobs.revisions.includes(STATELESS)) throw new KnobError(`knob task.${tasked[0]} needs revisions to list ${STATELESS}`);
  if (knobs.taskIds !== 'sealed' && tasked.length === 0) throw new KnobError(`knob task_ids=${knobs.taskIds} needs a task.<tool>, whose tasks it names`);
  for (const tool of tasked) if (knobs.rendezvous[tool] !== undefined) throw new KnobError(`knobs rendezvous.${tool} and task.${tool} cannot be combined`);
  // A rendezvous sends its own notices and holds its own answer.
  for (const tool of Object.keys(knobs.rendezvous)) {
    for (const [other, byTool] of [['ask', knobs.asks], ['notify', knobs.notifies]] as const) {
      if (byTool[tool] !== undefined) throw new KnobError(`knobs rendezvous.${tool} and ${other}.${tool} cannot be combined`);
    }
  }
  if (knobs.httpRedirectCalls && knobs.httpRedirectTo !== null) {
    throw new KnobError('knobs http_redirect_calls and http_redirect_to cannot be combined: each says where a call is redirected');
  }
  if (knobs.httpSse !== null && knobs.httpOversize !== null) {
    throw new KnobError('knobs http_sse and http_oversize cannot be combined: each says how a call is answered');
  }
  // Only a preset answer can be held back: without one every call gets the tool's own answer anyway.
  for (const tool of Object.keys(knobs.presetFromCall)) {
    if (knobs.errors[tool] === undefined && knobs.results[tool] === undefined) throw new KnobError(`knob preset_from_call.${tool} needs error.${tool} or result.${tool}, the answer it holds back`);
  }
  for (const [tool, preset] of Object.entries(knobs.outputSchemas)) {
    if (knobs.outputs[tool] === undefined) throw new KnobError(`knob output_schema.${tool}=${preset} needs output.${tool}, the output schema it varies`);
  }
  if (knobs.runInstructions && knobs.instructions === null) {
    throw new KnobError('knob run.instructions=1 needs instructions, the text it widens');
  }
  if (knobs.runExecution !== null && knobs.executions[knobs.runExecution] === 'required') {
    throw new KnobError(`knob run.execution=${knobs.runExecution} changes nothing on a tool already listed with execution.${knobs.runExecution}=required`);
  }
  if (knobs.runOutputSchema !== null && knobs.outputs[knobs.runOutputSchema] === undefined) {
    throw new KnobError(`knob run.output_schema=${knobs.runOutputSchema} needs output.${knobs.runOutputSchema}, the output schema it loosens`);
  }
  for (const [tool, name] of Object.entries(knobs.names)) {
    const otherNames = [
      ...toolNames.filter((other) => other !== tool),
      ...Object.entries(knobs.names).flatMap(([other, listed]) => (other === tool ? [] : [listed])),
      ...(knobs.runAdd === null ? [] : [knobs.runAdd]),
    ];
    if (otherNames.includes(name) || isFillerName(name, knobs.filler)) {
      throw badValue(`name.${tool}`, name, 'a name no other tool has or is listed under');
    }
  }
}

/** Whether `name` is the name of one of the first `count` filler tools. */
function isFillerName(name: string, count: number): boolean {
  const n = Number(/^filler_(\d+)$/.exec(name)?.[1]);
  return n >= 1 && n <= count && fillerTool(n).name === name;
}

type ToolKnob = 'annotations' | 'run.annotations' | 'description' | 'title' | 'execution' | 'icons' | 'schema' | 'name' | 'output_schema' | 'output' | 'result' | 'error' | 'preset_from_call' | 'echo_env' | 'ask' | 'notify' | 'needs' | 'rendezvous' | 'task';

/** `annotations.write_note` → annotations of write_note; any other key → null. */
function splitToolKey(key: string): { prefix: ToolKnob; tool: string } | null {
  const match = /^(run\.annotations|annotations|description|title|execution|icons|schema|name|output_schema|output|result|error|preset_from_call|echo_env|ask|notify|needs|rendezvous|task)\.(.+)$/.exec(key);
  return match ? { prefix: match[1] as ToolKnob, tool: match[2]! } : null;
}

/** `NAME` quotes the variable as written; `<encoding>:NAME` quotes it encoded. */
function envEcho(key: string, value: string): EnvEcho {
  const colon = value.indexOf(':');
  const encoding = colon < 0 ? null : ECHO_ENCODINGS.find((known) => known === value.slice(0, colon));
  const variable = value.slice(colon + 1);
  if (encoding !== undefined && ENV_NAME.test(variable)) return { variable, encoding };
  throw badValue(key, value, `an environment variable name, alone or after one of ${ECHO_ENCODINGS.map((known) => `${known}:`).join(', ')}`);
}

/** A name or version a server reports about itself: printable, 1 to 64 characters. */
function selfReport(key: string, value: string): string {
  if (/^[\x20-\x7e]{1,64}$/.test(value)) return value;
  throw badValue(key, value, '1 to 64 printable ASCII characters');
}

function validListedName(key: string, value: string): string {
  const length = [...value].length;
  if (length >= 1 && length <= MAX_LISTED_NAME) return value;
  throw badValue(key, value, `a name of 1 to ${MAX_LISTED_NAME} characters`);
}

/** A comma list of MCP revisions, each named once. */
function revisionList(key: string, value: string): Revision[] {
  const named = value.split(',');
  if (new Set(named).size !== named.length) throw badValue(key, value, `each of ${REVISIONS.join(', ')} at most once`);
  return named.map((revision) => oneOf(key, revision, REVISIONS));
}

function oneOf<T extends string>(key: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw badValue(key, value, `one of ${allowed.join(', ')}`);
}

/** One of `names`, or `<family>-<N>` for one of `families` with N in its range. */
function preset<Name extends string, Family extends string>(
  key: string,
  value: string,
  names: readonly Name[],
  families: Readonly<Record<Family, SizeRange>>,
): Name | Sized<Family> {
  if ((names as readonly string[]).includes(value)) return value as Name;
  const match = /^([a-z][a-z-]*)-(0|[1-9]\d*)$/.exec(value);
  if (match !== null && Object.hasOwn(families, match[1]!)) {
    const family = match[1] as Family;
    const { min, max } = families[family];
    const n = Number(match[2]);
    if (Number.isSafeInteger(n) && n >= min && n <= max) return { family, n };
  }
  const sized = (Object.entries(families) as [string, SizeRange][]).map(
    ([family, { min, max }]) => `${family}-<N> with N ${min}..${max}`,
  );
  throw badValue(key, value, `one of ${[...names, ...sized].join(', ')}`);
}

function integer(key: string, value: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = /^(0|[1-9]\d*)$/.test(value) ? Number(value) : NaN;
  if (Number.isSafeInteger(n) && n >= min && n <= max) return n;
  throw badValue(key, value, max === Number.MAX_SAFE_INTEGER ? `an integer >= ${min}` : `an integer ${min}..${max}`);
}

/**
 * `<scope>:<ttl>`: any scope of letters, digits, `_` and `-` (the spec's two or another, a canary
 * say) and any integer literal, negative or past 2^53 included: the kit writes both as given.
 */
function cacheHint(key: string, value: string): CacheHint {
  const match = /^([A-Za-z0-9_-]{1,64}):(-?(?:0|[1-9][0-9]{0,39}))$/.exec(value);
  if (match === null) throw badValue(key, value, '<scope>:<ttl>, a scope of letters, digits, _ and - and an integer (private:1000, public:86400000)');
  return { scope: match[1]!, ttl: match[2]! };
}

function badValue(key: string, value: string, expected: string): KnobError {
  return new KnobError(`bad value ${JSON.stringify(value)} for knob ${key}: expected ${expected}`);
}
