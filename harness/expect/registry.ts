import alreadyRan from './call/already-ran.js';
import agent from './call/agent.js';
import agentRequests from './call/agent-requests.js';
import answerExcludes from './call/answer-excludes.js';
import answerMaxBytes from './call/answer-max-bytes.js';
import answersLikeUnknown from './call/answers-like-unknown.js';
import approvalRequest from './call/approval-request.js';
import code from './call/code.js';
import contentIncludes from './call/content-includes.js';
import contentTypesAbsent from './call/content-types-absent.js';
import memoryGrowth from './call/memory-growth.js';
import { metaExcludes, metaIncludes } from './call/meta.js';
import notifications from './call/notifications.js';
import progressOwnOnly from './call/progress.js';
import receipt from './call/receipt.js';
import { serverArguments, serverArgumentsAbsent } from './call/server-arguments.js';
import serverReplies from './call/server-replies.js';
import serverReceived from './call/server-received.js';
import structured from './call/structured.js';
import textEscaped from './call/text-escaped.js';
import textIncludes from './call/text-includes.js';
import textMaxChars from './call/text-max-chars.js';
import truncated from './call/truncated.js';
import wellFormedText from './call/well-formed-text.js';
import aliveUntilClose from './close/alive-until-close.js';
import { answered, serverListed, uniqueNames, wellFormedDescriptions } from './list/always.js';
import { descriptionExcludes, descriptionMaxChars, descriptions } from './list/descriptions.js';
import effectiveHints from './list/effective-hints.js';
import listingExcludes from './list/listing-excludes.js';
import { instructions, instructionsExclude } from './start/instructions.js';
import members from './list/members.js';
import { count, excludes, includes } from './list/offered.js';
import { hidden, required } from './list/schemas.js';
import unchanged from './list/unchanged.js';
import { auditChain, auditTrail } from './scenario/audit.js';
import cacheHints from './scenario/cache-hints.js';
import canary from './scenario/canary.js';
import openedExcludes from './opened/unescaped.js';
import openedHttpsOnly from './opened/https-only.js';
import payloadRan from './opened/payload-ran.js';
import openedSignIn from './opened/sign-in.js';
import ledger from './scenario/ledger.js';
import loadReport from './scenario/load-report.js';
import secretsWithheld from './scenario/secrets.js';
import serverEnv from './scenario/server-env.js';
import serverHeaders from './scenario/server-headers.js';
import serverLedgers from './servers/ledgers.js';
import serversReceived from './servers/received.js';
import requestAgent from './request/agent.js';
import requestAnswerExcludes from './request/answer-excludes.js';
import requestAnswerIncludes from './request/answer-includes.js';
import requestAnswerMembers from './request/answer-members.js';
import requestAnswerMaxBytes from './request/answer-max-bytes.js';
import requestAnswersLikeUnknown from './request/answers-like-unknown.js';
import { descriptionExcludes as requestDescriptionExcludes, descriptions as requestDescriptions } from './request/descriptions.js';
import { excludes as requestExcludes, includes as requestIncludes } from './request/offered.js';
import requestServerListed from './request/server-listed.js';
import requestServerReceived from './request/server-received.js';
import requestTextMaxChars from './request/text-max-chars.js';
import outcome from './start/outcome.js';
import serverGroup from './start/server-group.js';
import listens from './start/listens.js';
import httpAgentSession from './http/agent-session.js';
import httpAnswered from './http/answered.js';
import httpReceivedExcludes from './http/received-excludes.js';
import httpTogetherReceived from './http/together-received.js';
import httpServerReceived from './http/server-received.js';
import httpStatus from './http/status.js';
import { callDelivered, listDelivered, requestDelivered } from './delivered.js';
import { callSurvivors, closeSurvivors, killSurvivors, startSurvivors } from './survivors.js';
import type { Block, CheckClass, Expectation, ExpectOf } from './types.js';

/**
 * Every expectation, in judging order within its block. The scenario schema's `expect` objects
 * and docs/expectations.md are generated from this list (`npm run generate`), so the format is
 * written once; a test fails when the committed files are stale.
 */
export const EXPECTATIONS: readonly Expectation[] = [
  outcome,
  startSurvivors,
  serverGroup,
  listens,
  instructions,
  instructionsExclude,
  listDelivered,
  answered,
  serverListed,
  includes,
  excludes,
  count,
  descriptions,
  descriptionMaxChars,
  descriptionExcludes,
  listingExcludes,
  members,
  effectiveHints,
  hidden,
  required,
  unchanged,
  uniqueNames,
  wellFormedDescriptions,
  callDelivered,
  agent,
  code,
  serverReceived,
  serversReceived,
  serverArguments,
  serverArgumentsAbsent,
  answersLikeUnknown,
  textIncludes,
  answerExcludes,
  answerMaxBytes,
  textEscaped,
  textMaxChars,
  truncated,
  alreadyRan,
  contentTypesAbsent,
  contentIncludes,
  structured,
  metaIncludes,
  metaExcludes,
  approvalRequest,
  receipt,
  memoryGrowth,
  agentRequests,
  serverReplies,
  notifications,
  progressOwnOnly,
  callSurvivors,
  wellFormedText,
  requestDelivered,
  requestAgent,
  requestServerReceived,
  requestServerListed,
  requestAnswersLikeUnknown,
  requestIncludes,
  requestExcludes,
  requestDescriptions,
  requestDescriptionExcludes,
  requestAnswerIncludes,
  requestAnswerMembers,
  requestAnswerExcludes,
  requestAnswerMaxBytes,
  requestTextMaxChars,
  closeSurvivors,
  aliveUntilClose,
  killSurvivors,
  ledger,
  canary,
  cacheHints,
  openedExcludes,
  openedHttpsOnly,
  payloadRan,
  openedSignIn,
  secretsWithheld,
  serverEnv,
  serverHeaders,
  serverLedgers,
  loadReport,
  auditTrail,
  auditChain,
  httpAnswered,
  httpServerReceived,
  httpReceivedExcludes,
  httpTogetherReceived,
  httpAgentSession,
  httpStatus,
] as Expectation[];

export const BLOCKS: readonly Block[] = ['start', 'list', 'call', 'request', 'close', 'kill_candidate', 'http', 'scenario'];

export const expectationsOf = <B extends Block>(block: B): Array<Expectation<B>> => EXPECTATIONS.filter((module) => module.block === block) as unknown as Array<Expectation<B>>;

/** The modules an `expect` object triggers: those with a property it gives, and the `always` ones. */
export function triggered<B extends Block>(block: B, expect: ExpectOf<B> | undefined): Array<Expectation<B>> {
  const given = (expect ?? {}) as Record<string, unknown>;
  return expectationsOf(block).filter((module) => module.always || Object.keys(module.properties).some((key) => given[key] !== undefined));
}

/** The check ids a module can report for this `expect`. */
export const checksOf = <B extends Block>(module: Expectation<B>, expect: ExpectOf<B>): string[] => module.checksFor?.(expect) ?? Object.keys(module.checks);

/** Every check id the suite knows, with its class: ids are stable, so reports can be compared. */
export const CHECKS: ReadonlyMap<string, { class: CheckClass; doc: string }> = new Map(EXPECTATIONS.flatMap((module) => Object.entries(module.checks)));
