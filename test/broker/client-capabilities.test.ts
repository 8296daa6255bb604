// The client capabilities the broker declares to a server: what the operator permits, never
// more, in MCP 2025-11-25's shape; and what an agent's initialize declares.

import { describe, expect, it } from 'vitest';
import { NO_CAPABILITIES, capabilitiesValue, commonCapabilities, declarableCapabilities, permittedCapabilities, readCapabilities } from '../../src/operator/client-capabilities.js';
import { config } from './builders.js';
import { DEFAULT_SERVER_REQUESTS, parseServerRequests } from '../../src/operator/server-requests.js';
import { readJson } from '../../src/json/reader.js';
import { writeJson } from '../../src/json/writer.js';

const declared = (serverRequests: unknown) => writeJson(capabilitiesValue(permittedCapabilities(parseServerRequests(readJson(JSON.stringify(serverRequests))))));

describe('client capabilities', () => {
  it('declares nothing the operator did not permit: by default, none', () => {
    expect(permittedCapabilities(DEFAULT_SERVER_REQUESTS)).toEqual(NO_CAPABILITIES);
    expect(writeJson(capabilitiesValue(NO_CAPABILITIES))).toBe('{}');
    // Bounds alone permit nothing.
    expect(declared({ sampling: { max_requests: 9 }, elicitation: { max_requests: 9 }, roots: [] })).toBe('{}');
  });

  it('declares each feature the operator permits, with the sub-fields it permits', () => {
    expect(declared({ sampling: { allow: true } })).toBe('{"sampling":{}}');
    expect(declared({ sampling: { allow: true, allow_tools: true } })).toBe('{"sampling":{"tools":{}}}');
    // Tools without sampling itself permit nothing.
    expect(declared({ sampling: { allow: false, allow_tools: true } })).toBe('{}');
    expect(declared({ elicitation: { allow: true } })).toBe('{"elicitation":{"form":{},"url":{}}}');
    expect(declared({ roots: ['file:///notes'] })).toBe('{"roots":{}}');
    expect(declared({ sampling: { allow: true }, elicitation: { allow: true }, roots: ['file:///notes'] })).toBe('{"roots":{},"sampling":{},"elicitation":{"form":{},"url":{}}}');
  });

  it('declares what the operator permits to a server reached by URL too, whose requests arrive on a call\'s event stream', () => {
    const serverRequests = parseServerRequests(readJson('{"sampling":{"allow":true},"elicitation":{"allow":true},"roots":["file:///notes"]}'));
    const started = config({}, { serverRequests });
    expect(declarableCapabilities(started)).toEqual(permittedCapabilities(serverRequests));
    expect(declarableCapabilities({ ...started, server: { id: 'notes', url: new URL('https://mcp.example.test/mcp'), prefix: undefined, sourceVersion: undefined } })).toEqual(permittedCapabilities(serverRequests));
  });

  it('keeps only what both declare', () => {
    const all = { sampling: true, samplingTools: true, elicitationForm: true, elicitationUrl: true, roots: true };
    const some = { ...NO_CAPABILITIES, sampling: true, elicitationUrl: true };
    expect(commonCapabilities(all, some)).toEqual(some);
    expect(commonCapabilities(some, NO_CAPABILITIES)).toEqual(NO_CAPABILITIES);
  });

  it('reads what an initialize declares, an empty elicitation as form mode, and anything not an object as nothing', () => {
    const read = (text: string) => readCapabilities(readJson(text));
    expect(read('{"sampling":{"tools":{}},"elicitation":{},"roots":{"listChanged":true}}')).toEqual({ sampling: true, samplingTools: true, elicitationForm: true, elicitationUrl: false, roots: true });
    expect(read('{"elicitation":{"url":{}},"sampling":true,"roots":null}')).toEqual({ ...NO_CAPABILITIES, elicitationUrl: true });
    expect(read('[]')).toEqual(NO_CAPABILITIES);
    expect(readCapabilities(undefined)).toEqual(NO_CAPABILITIES);
    // What the broker declares reads back as itself.
    const all = { sampling: true, samplingTools: true, elicitationForm: true, elicitationUrl: true, roots: true };
    expect(readCapabilities(capabilitiesValue(all))).toEqual(all);
  });
});
