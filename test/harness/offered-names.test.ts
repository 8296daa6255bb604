// A broker that offers its servers' tools, prompts, resources and templates under names of its
// own (mcp-hub's `server__<name>`) is asked for them by those names, and its listings read under
// the server's: otherwise every resource and prompt scenario would find nothing offered.

import { describe, expect, it } from 'vitest';
import { offeredParams, scenarioListing, type Names } from '../../harness/candidates/offered-names.js';

const hub: Names = { offered: (name) => `server__${name}`, scenario: (offered) => (offered.startsWith('server__') ? offered.slice('server__'.length) : undefined) };

describe('names a candidate offers', () => {
  it('renames what a request names: a call, a prompt, a resource read or subscription, a completion reference', () => {
    expect(offeredParams(hub, 'tools/call', { name: 'search_notes', arguments: {} })).toEqual({ name: 'server__search_notes', arguments: {} });
    expect(offeredParams(hub, 'prompts/get', { name: 'summarise' })).toEqual({ name: 'server__summarise' });
    expect(offeredParams(hub, 'resources/read', { uri: 'file:///notes/1.txt' })).toEqual({ uri: 'server__file:///notes/1.txt' });
    expect(offeredParams(hub, 'resources/unsubscribe', { uri: 'file:///a' })).toEqual({ uri: 'server__file:///a' });
    expect(offeredParams(hub, 'completion/complete', { ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'topic', value: '' } })).toEqual({ ref: { type: 'ref/prompt', name: 'server__p' }, argument: { name: 'topic', value: '' } });
    expect(offeredParams(hub, 'completion/complete', { ref: { type: 'ref/resource', uri: 'file:///{id}' } })).toEqual({ ref: { type: 'ref/resource', uri: 'server__file:///{id}' } });
    // Nothing else is renamed, and a candidate without names of its own is asked as the scenario asks.
    expect(offeredParams(hub, 'logging/setLevel', { level: 'info' })).toEqual({ level: 'info' });
    expect(offeredParams(undefined, 'tools/call', { name: 'x' })).toEqual({ name: 'x' });
  });

  it("reads a listing under the server's names, leaving a name of the candidate's own as it is", () => {
    expect(scenarioListing(hub, 'resources/list', { resources: [{ uri: 'server__file:///a', name: 'a' }, { uri: 'hub://own' }] })).toEqual({ resources: [{ uri: 'file:///a', name: 'a' }, { uri: 'hub://own' }] });
    expect(scenarioListing(hub, 'resources/templates/list', { resourceTemplates: [{ uriTemplate: 'server__file:///{id}' }] })).toEqual({ resourceTemplates: [{ uriTemplate: 'file:///{id}' }] });
    expect(scenarioListing(hub, 'prompts/list', { prompts: [{ name: 'server__p' }], nextCursor: 'c' })).toEqual({ prompts: [{ name: 'p' }], nextCursor: 'c' });
    expect(scenarioListing(hub, 'tools/list', { tools: [{ name: 'server__t' }] })).toEqual({ tools: [{ name: 't' }] });
    expect(scenarioListing(hub, 'tools/call', { content: [] })).toEqual({ content: [] });
  });
});
