// Every guard the broker has, by kind and in the order it runs. `--disable-guard NAME` removes
// exactly the named one; the rest of the broker then behaves as if that protection did not exist.

import { ConfigError } from '../errors.js';
import { addressGuard } from './address.js';
import { agentChain, grants, hiddenParamsRefused, inputValid, policy } from './call.js';
import { driftClosesSession, quarantineDrifted, quarantinedRefused, rediscoveryBounded } from './drift.js';
import { manifestRequired, manifestServer, rulesPinned } from './config.js';
import { privateOperatorFiles } from './files.js';
import { foreignMentions, foreignMentionsResult, serverNamesUnique } from './fleet.js';
import {
  completionBounded,
  completionNoHiddenNames,
  featureContentCap,
  featurePin,
  inspectFeatureContents,
  inspectFeatureDescriptors,
  promptAllowed,
  promptArgumentsValid,
  resourceUriAllowed,
  withholdFeatureBlobs,
} from './features.js';
import { frontDoorCredential, frontDoorLoopback, hostCheck, logLinesAttributed, originCheck, sessionBinding, sessionIdsUnguessable, type FrontDoorGuard } from './front-door.js';
import { resultSizeBound, serverQueueBound } from './frame.js';
import { inspectArguments, inspectDescriptors } from './inspection.js';
import { bearerHttpsOnly, httpBodyCap, noRedirects } from './http.js';
import { listingBounds, listingUnique } from './listing.js';
import { nameRules, nameUnique } from './names.js';
import { groupDiesWithBroker, ownProcessGroup, parentDeathSignal } from './process.js';
import { descriptionCap, inspectDescriptorsStep, inspectResults, redactServerEnv, resultCap, serverErrorEscaped } from './outbound.js';
import { operatorAnnotations, operatorDescription } from './presentation.js';
import { iconsPin, iconsSafe, iconsSafeFeatures } from './icons.js';
import { paramHeadersValid } from './param-headers.js';
import { brokerMarkersOnly, effectContract, outputValid, serverErrorIsToolError, withholdUninspectable } from './result.js';
import { hiddenNamesSound, objectSchema, referencesResolve, schemaCompiles, selfContained } from './schema.js';
import { elicitationAllowed, elicitationBounds, elicitationModeDeclared, elicitationNoCredentials, elicitationUrlWhole } from './elicitation.js';
import { elicitationHostDistinct } from './shown-host.js';
import { listChangedBound, logFloodBound, noticeEscaped, noticeRedacted, progressOwnToken } from './notices.js';
import { requestTextInspected } from './request-text.js';
import { requestStateBound } from './input-state.js';
import { discoverPinned } from './discover.js';
import { cacheHintsPrivate } from './cache-hints.js';
import { taskBound } from './tasks.js';
import { rootsPermitted } from './roots.js';
import { sourceToSink } from './source-to-sink.js';
import { joinedDescriptions } from './joined-descriptions.js';
import { samplingAllowed, samplingBounds, samplingNoContext, samplingToolsDeclared } from './sampling.js';
import type { NotificationGuard, ServerReplyGuard, ServerRequestGuard } from './types.js';
import { agentVisibility, nothingRegistered, registeredCallsOnly } from './session.js';
import { classified, descriptionPin, effectContractSound, executionPin, hintConsistency, outputSchemaPin, pinned, schemaPin, stillOffered } from './tool.js';
import type {
  AddressGuard,
  CacheHintGuard,
  CallGuard,
  ConfigGuard,
  DriftGuard,
  FileGuard,
  FleetGuard,
  FrameGuard,
  QueueGuard,
  RediscoveryGuard,
  HttpGuard,
  InputStateGuard,
  DiscoverGuard,
  ListingGuard,
  TaskGuard,
  OutboundGuard,
  PresentationGuard,
  ProcessGuard,
  ResultGuard,
  ServeGuard,
  ServerToolsGuard,
  ToolGuard,
  VisibilityGuard,
  FeatureGuard,
} from './types.js';

export interface Guards {
  readonly file: readonly FileGuard[];
  readonly config: readonly ConfigGuard[];
  readonly process: readonly ProcessGuard[];
  readonly address: readonly AddressGuard[];
  readonly http: readonly HttpGuard[];
  readonly frame: readonly FrameGuard[];
  readonly queue: readonly QueueGuard[];
  readonly listing: readonly ListingGuard[];
  readonly tool: readonly ToolGuard[];
  readonly presentation: readonly PresentationGuard[];
  readonly serverTools: readonly ServerToolsGuard[];
  readonly fleet: readonly FleetGuard[];
  readonly visibility: readonly VisibilityGuard[];
  readonly call: readonly CallGuard[];
  readonly result: readonly ResultGuard[];
  readonly drift: readonly DriftGuard[];
  readonly rediscovery: readonly RediscoveryGuard[];
  readonly outbound: readonly OutboundGuard[];
  readonly serve: readonly ServeGuard[];
  readonly feature: readonly FeatureGuard[];
  readonly serverRequest: readonly ServerRequestGuard[];
  readonly serverReply: readonly ServerReplyGuard[];
  readonly notification: readonly NotificationGuard[];
  readonly inputState: readonly InputStateGuard[];
  readonly discover: readonly DiscoverGuard[];
  readonly cacheHints: readonly CacheHintGuard[];
  readonly task: readonly TaskGuard[];
  readonly frontDoor: readonly FrontDoorGuard[];
}

export const ALL_GUARDS: Guards = {
  file: [privateOperatorFiles],
  config: [manifestRequired, manifestServer, rulesPinned],
  process: [ownProcessGroup, parentDeathSignal, groupDiesWithBroker],
  address: [addressGuard],
  http: [noRedirects, httpBodyCap, bearerHttpsOnly],
  frame: [resultSizeBound],
  queue: [serverQueueBound],
  listing: [listingBounds, listingUnique],
  // Whether the review saw a tool comes before what the operator said of it: rules-pinned lets a
  // rule name only pinned tools, so a tool the review never saw is reported unpinned.
  tool: [
    stillOffered,
    pinned,
    classified,
    schemaPin,
    outputSchemaPin,
    executionPin,
    descriptionPin,
    hintConsistency,
    objectSchema,
    selfContained,
    referencesResolve,
    paramHeadersValid,
    hiddenNamesSound,
    schemaCompiles,
    inspectDescriptors,
    effectContractSound,
    nameRules,
    nameUnique,
  ],
  // The operator's decisions first, then the icons as pinned and safe to show (the pin compared
  // with the icons as listed, before icons-safe rebuilds them): the outbound stage then inspects
  // what the agent would be shown.
  presentation: [operatorAnnotations, operatorDescription, iconsPin, iconsSafe],
  // One server's tools read side by side, once each passed on its own (load.ts).
  serverTools: [joinedDescriptions],
  // With several servers, on every server's decided tools: a shared name refused before what
  // one server says of another's tools is looked for, so only names that stay are looked for.
  fleet: [serverNamesUnique, foreignMentions],
  visibility: [registeredCallsOnly, agentVisibility],
  // A quarantined tool is refused before anything else is judged (docs/call-path.md).
  // Then the order docs/call-path.md fixes: chain, hidden parameters, input schema, grant, policy.
  // Arguments are inspected after the input schema and before the grant (docs/result-path.md).
  // Source-to-sink last: its pass is the dispatch that marks a private read (guards/source-to-sink.ts).
  call: [quarantinedRefused, agentChain, hiddenParamsRefused, inputValid, inspectArguments, grants, policy, sourceToSink],
  // The broker's marks cleared of the server's forgeries before any guard adds its own; the
  // server's own error report next, so that a failed call is judged as one; output and
  // effect on what the server sent; then what the agent may see of it. The outbound stage then
  // takes the whole result (inspection, redaction, the cap).
  result: [brokerMarkersOnly, serverErrorIsToolError, outputValid, effectContract, withholdUninspectable, foreignMentionsResult],
  // The steps of the outbound stage; the stage runs them in its own order (inspect/stage.ts), so
  // their order here decides nothing.
  outbound: [inspectDescriptorsStep, inspectResults, redactServerEnv, serverErrorEscaped, descriptionCap, resultCap],
  // Calls wait until every drift guard has acted, so their order here decides nothing.
  drift: [quarantineDrifted, driftClosesSession],
  rediscovery: [rediscoveryBounded],
  serve: [nothingRegistered],
  // Resources, prompts and completion, each hook in this order: at Load the pin, then what the
  // operator allows, then the icons safe to show, then inspection of what would be shown; before the server is asked, what the
  // operator allows, then the prompt's arguments; on the answer, what cannot be inspected is
  // withheld and completions bounded and cleared of hidden names before inspection, and the cap
  // is last, on what is actually sent.
  feature: [
    featurePin,
    resourceUriAllowed,
    promptAllowed,
    iconsSafeFeatures,
    inspectFeatureDescriptors,
    promptArgumentsValid,
    withholdFeatureBlobs,
    completionBounded,
    completionNoHiddenNames,
    inspectFeatureContents,
    featureContentCap,
  ],
  // Whether the operator allows the kind at all, and whether the agent declared the mode (and the
  // broker the context a sampling request asks for), before what the request holds; the URL judged as sent, before inspection normalises the text; the
  // bounds on the text as the server sent it.
  serverRequest: [
    samplingAllowed,
    samplingToolsDeclared,
    samplingNoContext,
    samplingBounds,
    elicitationAllowed,
    elicitationModeDeclared,
    elicitationUrlWhole,
    elicitationHostDistinct,
    elicitationNoCredentials,
    elicitationBounds,
    requestTextInspected,
  ],
  serverReply: [rootsPermitted],
  // Bounds first, so a flood costs no inspection; redacted and inspected before escaped, which
  // would change how a value is written.
  notification: [logFloodBound, listChangedBound, progressOwnToken, noticeRedacted, noticeEscaped],
  inputState: [requestStateBound],
  discover: [discoverPinned],
  cacheHints: [cacheHintsPrivate],
  task: [taskBound],
  frontDoor: [frontDoorLoopback, originCheck, hostCheck, frontDoorCredential, sessionBinding, sessionIdsUnguessable, logLinesAttributed],
};

// A guard acting at two points (inspect-descriptors, effect-contract, drift-quarantine,
// foreign-mentions) is one name: disabling it removes it from both.
export const GUARD_NAMES: readonly string[] = [
  ...new Set(Object.values(ALL_GUARDS).flatMap((list: readonly { name: string }[]) => list.map((guard) => guard.name))),
];

/** All guards but the disabled ones; an unknown name is a command-line error. */
export function selectGuards(disabled: readonly string[]): Guards {
  for (const name of disabled) {
    if (!GUARD_NAMES.includes(name)) {
      throw new ConfigError(`unknown guard "${name}"; the guards are: ${GUARD_NAMES.join(', ')}`);
    }
  }
  const keep = <G extends { readonly name: string }>(list: readonly G[]): G[] =>
    list.filter((guard) => !disabled.includes(guard.name));
  return {
    file: keep(ALL_GUARDS.file),
    config: keep(ALL_GUARDS.config),
    process: keep(ALL_GUARDS.process),
    address: keep(ALL_GUARDS.address),
    http: keep(ALL_GUARDS.http),
    frame: keep(ALL_GUARDS.frame),
    queue: keep(ALL_GUARDS.queue),
    listing: keep(ALL_GUARDS.listing),
    tool: keep(ALL_GUARDS.tool),
    presentation: keep(ALL_GUARDS.presentation),
    serverTools: keep(ALL_GUARDS.serverTools),
    fleet: keep(ALL_GUARDS.fleet),
    visibility: keep(ALL_GUARDS.visibility),
    call: keep(ALL_GUARDS.call),
    result: keep(ALL_GUARDS.result),
    drift: keep(ALL_GUARDS.drift),
    rediscovery: keep(ALL_GUARDS.rediscovery),
    outbound: keep(ALL_GUARDS.outbound),
    serve: keep(ALL_GUARDS.serve),
    feature: keep(ALL_GUARDS.feature),
    serverRequest: keep(ALL_GUARDS.serverRequest),
    serverReply: keep(ALL_GUARDS.serverReply),
    notification: keep(ALL_GUARDS.notification),
    inputState: keep(ALL_GUARDS.inputState),
    discover: keep(ALL_GUARDS.discover),
    cacheHints: keep(ALL_GUARDS.cacheHints),
    task: keep(ALL_GUARDS.task),
    frontDoor: keep(ALL_GUARDS.frontDoor),
  };
}
