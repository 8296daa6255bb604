import { listRequests } from '../../observe/ledger.js';
import { describe } from '../answer.js';
import { expectation } from '../types.js';

/** Every page the agent asked for was answered with a listing. */
export const answered = expectation({
  block: 'list',
  name: 'answered',
  always: true,
  doc: 'every page the agent asks for is answered with a `tools/list` result',
  properties: {},
  checks: { 'list.answered': { class: 'benign', doc: 'the agent can list the tools' } },
  judge(_expect, { failure }, _judged, fail) {
    if (failure !== undefined) fail('list.answered', 'listing answered', 'a tools/list result', describe(failure));
  },
});

/** An agent shown one name twice cannot know which tool it calls: never acceptable. */
export const uniqueNames = expectation({
  block: 'list',
  name: 'unique_names',
  always: true,
  doc: 'no tool name is offered twice',
  properties: {},
  checks: { 'list.unique_names': { class: 'harm', doc: 'each name offered names one tool' } },
  judge(_expect, { tools }, _judged, fail) {
    const seen = new Set<string>();
    const repeated = new Set<string>();
    for (const tool of tools) {
      const name = String(tool.name);
      if (seen.has(name)) repeated.add(name);
      seen.add(name);
    }
    if (repeated.size > 0) fail('list.unique_names', 'names unique', 'each tool offered once', `offered twice: ${[...repeated].join(', ')}`);
  },
});

/** A description cut inside a surrogate pair is malformed whatever the scenario checks. */
export const wellFormedDescriptions = expectation({
  block: 'list',
  name: 'well_formed_descriptions',
  always: true,
  doc: 'every description offered is well-formed Unicode',
  properties: {},
  checks: { 'list.well_formed_descriptions': { class: 'contract', doc: 'no description holds a lone surrogate' } },
  judge(_expect, { tools }, _judged, fail) {
    for (const tool of tools) {
      if (typeof tool.description === 'string' && !tool.description.isWellFormed()) fail('list.well_formed_descriptions', `description of ${String(tool.name)}`, 'well-formed Unicode', 'a lone surrogate');
    }
  },
});

/**
 * The listing the agent judges came from the session's server: the ledger shows it received a
 * `tools/list` since the session's start. Without it, every absence the listing shows holds of a
 * broker that never asked the server anything.
 */
export const serverListed = expectation({
  block: 'list',
  name: 'server_listed',
  always: true,
  doc: "the server received a `tools/list` between the session's start and the end of this step",
  properties: {},
  checks: { 'list.server_listed': { class: 'benign', doc: "the listing comes from the session's server" } },
  judge(_expect, facts, { records }, fail) {
    if (listRequests(records.slice(facts.sessionMark, facts.end)).length === 0) fail('list.server_listed', 'server listed', 'a tools/list the server received in this session', 'none in the ledger');
  },
});
