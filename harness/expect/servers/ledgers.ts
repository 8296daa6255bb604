import { recordsOf } from '../../observe/ledger.js';
import ledger from '../scenario/ledger.js';
import serverHeaders from '../scenario/server-headers.js';
import { expectation, type Expectation } from '../types.js';

/** The scenario-wide expectations a server among several can be held to over its own records. */
const PER_SERVER: ReadonlyArray<Expectation<'scenario'>> = [ledger, serverHeaders];

/** A delegated check's id, as this module reports it: `servers.ledger.calls`. */
const own = (check: string): string => `servers.${check}`;

/**
 * Each of several servers judged on its own ledger records, by the very modules that judge the
 * scenario's whole ledger: the calls it received are exactly its own, the headers it was sent
 * carry its host's token and no other's. A server the step names must have been launched, or
 * its empty ledger would prove nothing.
 */
export default expectation({
  block: 'scenario',
  name: 'servers',
  doc: 'with several servers: `ledger` and `server_headers` (as above) judged over each named server\'s own ledger records; each named server must have been launched',
  properties: {
    servers: {
      type: 'object',
      minProperties: 1,
      propertyNames: { $ref: '#/$defs/serverName' },
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        minProperties: 1,
        properties: Object.fromEntries(PER_SERVER.flatMap((module) => Object.entries(module.properties))),
      },
    },
  },
  checks: {
    'servers.launched': { class: 'benign', doc: 'the named server was started or listening, so its ledger means something' },
    ...Object.fromEntries(
      PER_SERVER.flatMap((module) => Object.entries(module.checks).map(([check, { class: kind, doc }]) => [own(check), { class: kind, doc: `over one server's own records: ${doc}` }])),
    ),
  },
  judge({ servers: wanted = {} }, facts, judged, fail) {
    for (const [name, expect] of Object.entries(wanted)) {
      const records = recordsOf(judged.records, name);
      if (!records.some((record) => record.ev === 'launch')) fail('servers.launched', `server ${name} launched`, 'a launch record', 'none in the ledger');
      for (const module of PER_SERVER) {
        module.judge(expect, facts, { ...judged, records }, (check, expectation, expected, observed, step) => fail(own(check), `${name}: ${expectation}`, expected, observed, step));
      }
    }
  },
});
