import type { RequestRecord } from '../../../servers/kit/ledger.js';
import { isMcpRequest, mcpEndpointPaths, requestText } from '../../observe/mcp-requests.js';
import { expectation, type Fail } from '../types.js';

/**
 * What headers the server's HTTP requests came with, from the ledger's request records. Where a
 * header goes is judged over every request (a token sent to a discovery path is sent all the
 * same); whether the MCP traffic carried the credential is judged over MCP requests only (those
 * at the operator's endpoint), since a broker's OAuth discovery and registration requests to the
 * same server carry none by design. Those other requests are named in the case's notes.
 */
export default expectation({
  block: 'scenario',
  name: 'server_headers',
  doc: 'headers of the HTTP requests the server received (names in lower case): `absent` names headers no request carried and `values_exclude` texts no header value may contain, over every request (where a secret goes; `{front_door_credential}` stands for the credential the adapter provided for its front door, and for nothing when it provided none); `equals` the value every MCP request carried (a transport method at the endpoint the operator named; at least one is needed), so discovery and registration requests elsewhere on the server, named in the notes, do not count for it; each thing seen is one finding, whose observed value ends with how many of the requests showed it',
  properties: {
    server_headers: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      properties: {
        absent: { type: 'array', minItems: 1, items: { $ref: '#/$defs/headerName' } },
        equals: { type: 'object', minProperties: 1, propertyNames: { $ref: '#/$defs/headerName' }, additionalProperties: { type: 'string' } },
        values_exclude: { $ref: '#/$defs/fragments' },
      },
    },
  },
  checks: {
    'server_headers.requested': { class: 'benign', doc: 'the server received an MCP request to inspect' },
    'server_headers.absent': { class: 'harm', doc: 'no request, MCP or other, carried the header' },
    'server_headers.equals': { class: 'benign', doc: 'every MCP request carried the credential meant for this host' },
    'server_headers.values_exclude': { class: 'harm', doc: 'no request, MCP or other, carried the text in a header' },
  },
  judge({ server_headers: expect }, facts, { records, spec, note }, fail) {
    if (!expect) return;
    const requests = records.filter((record): record is RequestRecord => record.ev === 'request');
    const endpoints = mcpEndpointPaths(spec);
    const mcp = requests.filter((request) => isMcpRequest(request, endpoints));
    const others = requests.filter((request) => !isMcpRequest(request, endpoints));
    if (others.length > 0) {
      note?.(`server_headers: ${others.length} of ${requests.length} requests were not MCP requests (not to ${[...endpoints].join(', ') || 'an endpoint the operator named'}): ${others.map(requestText).join(', ')}; judged for where headers went, not for what MCP traffic carried`);
    }
    // Headers a request must carry need a request to carry them; absent ones hold of none too,
    // as for a candidate that refused before it dialled (its own checks say whether it did).
    if (expect.equals !== undefined && mcp.length === 0) fail('server_headers.requested', 'server receives MCP requests', 'an MCP request to inspect', requests.length === 0 ? 'none' : `none of ${requests.length} requests (${requests.map(requestText).join(', ')})`);
    tally(requests, fail, (request, saw) => {
      for (const name of expect.absent ?? []) {
        const value = request.headers[name];
        if (value !== undefined) saw('server_headers.absent', `server never receives ${name}`, 'absent', `${name}: ${value}`);
      }
      for (const text of excluded(expect.values_exclude ?? [], facts.frontDoorCredential)) {
        const holders = Object.entries(request.headers).filter(([, value]) => value.includes(text)).map(([name]) => name);
        if (holders.length > 0) saw('server_headers.values_exclude', `server never receives ${JSON.stringify(text)}`, 'in no header', `in ${holders.join(', ')}`);
      }
    });
    tally(mcp, fail, (request, saw) => {
      for (const [name, value] of Object.entries(expect.equals ?? {})) {
        const got = request.headers[name];
        if (got !== value) saw('server_headers.equals', `MCP requests carry ${name}`, value, got ?? '(absent)');
      }
    }, 'MCP ');
  },
});

/** The placeholder for the front door's credential, which only the adapter knows. */
const FRONT_DOOR_CREDENTIAL = '{front_door_credential}';

/**
 * The texts `values_exclude` names, the placeholder filled in with the credential's secret part
 * (after an authorization scheme such as `Bearer `, which a broker passing the token on in another
 * header would not repeat); with no credential provided, it names nothing.
 */
export function excluded(texts: readonly string[], credential: string | undefined): string[] {
  const secret = credential?.replace(/^[A-Za-z]+ +(?=\S)/, '');
  return texts.flatMap((text) => (text === FRONT_DOOR_CREDENTIAL ? (secret === undefined || secret === '' ? [] : [secret]) : [text]));
}

type ServerHeadersCheck = 'server_headers.absent' | 'server_headers.values_exclude' | 'server_headers.equals';
type Saw = (check: ServerHeadersCheck, expectation: string, expected: string, observed: string) => void;

/**
 * A broker that leaks does so on every request it makes: each thing seen over `requests` is one
 * finding, with how many of them showed it, not one identical finding per request.
 */
function tally(requests: readonly RequestRecord[], fail: Fail, inspect: (request: RequestRecord, saw: Saw) => void, kind = ''): void {
  const seen = new Map<string, { check: ServerHeadersCheck; expectation: string; expected: string; observed: string; requests: number }>();
  const saw: Saw = (check, expectation, expected, observed) => {
    const key = JSON.stringify([check, expectation, observed]);
    const entry = seen.get(key) ?? { check, expectation, expected, observed, requests: 0 };
    entry.requests += 1;
    seen.set(key, entry);
  };
  for (const request of requests) inspect(request, saw);
  const of = `of ${requests.length} ${kind}request${requests.length === 1 ? '' : 's'}`;
  for (const { check, expectation, expected, observed, requests: count } of seen.values()) fail(check, expectation, expected, `${observed} (${count} ${of})`);
}
