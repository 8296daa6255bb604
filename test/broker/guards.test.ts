// Each guard on its own, and the hint rule as a table.

import { existsSync, type Stats } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/operator/config.js';
import { ConfigError } from '../../src/errors.js';
import { hintContradiction } from '../../src/guards/hints.js';
import { listingBounds, listingUnique } from '../../src/guards/listing.js';
import { operatorAnnotations, operatorDescription } from '../../src/guards/presentation.js';
import { ALL_GUARDS, GUARD_NAMES, selectGuards } from '../../src/guards/registry.js';
import { manifestRequired, manifestServer, rulesPinned } from '../../src/guards/config.js';
import { privateOperatorFiles } from '../../src/guards/files.js';
import { groupDiesWithBroker, ownProcessGroup, parentDeathSignal, parentDeathSignalThrough } from '../../src/guards/process.js';
import { nothingRegistered, registeredCallsOnly } from '../../src/guards/session.js';
import { classified, descriptionPin, effectContractSound, executionPin, hintConsistency, outputSchemaPin, pinned, schemaPin, stillOffered } from '../../src/guards/tool.js';
import { nameRules, nameUnique } from '../../src/guards/names.js';
import { hiddenNamesSound, objectSchema, schemaCompiles, selfContained } from '../../src/guards/schema.js';
import type { ToolSubject } from '../../src/guards/types.js';
import { writeJson } from '../../src/json/writer.js';
import { toolSubject } from '../../src/load/load.js';
import { CONTEXT, config, json, manifestOf, pinOf, registeredTool, rule, tool } from './builders.js';
import { EFFECTS, type Effect, type ListingPage, type Rule } from '../../src/types.js';

const listed = tool('t', { schema: '{"type":"object","properties":{"n":{"maximum":9007199254740993}}}' });
const subject = (overrides: Partial<Pick<ToolSubject, 'live' | 'pin' | 'rule'>>): ToolSubject => {
  const parts = { live: listed, pin: pinOf(listed), rule: rule('read_only'), ...overrides };
  return toolSubject('t', parts.live, parts.pin, config(parts.rule === undefined ? {} : { t: parts.rule }), new Set(), ALL_GUARDS);
};
const PASS = { kind: 'pass' };

describe('per-tool guards', () => {
  it('still-offered refuses a pinned tool the server no longer lists', () => {
    expect(stillOffered.check(subject({}))).toEqual(PASS);
    expect(stillOffered.check(subject({ live: undefined }))).toEqual({ kind: 'refuse', reason: 'the server no longer offers it' });
  });

  it('classified refuses a tool without an operator rule', () => {
    expect(classified.check(subject({}))).toEqual(PASS);
    expect(classified.check(subject({ rule: undefined })).kind).toBe('refuse');
  });

  it('pinned refuses a tool the manifest does not pin', () => {
    expect(pinned.check(subject({}))).toEqual(PASS);
    expect(pinned.check(subject({ pin: undefined })).kind).toBe('refuse');
  });

  it('schema-pin refuses a changed schema, even one a float64 cannot tell apart', () => {
    expect(schemaPin.check(subject({}))).toEqual(PASS);
    const reordered = tool('t', { schema: '{ "properties" : {"n":{"maximum":9007199254740993.0}}, "type":"object"}' });
    expect(schemaPin.check(subject({ live: reordered }))).toEqual(PASS);
    const moved = tool('t', { schema: '{"type":"object","properties":{"n":{"maximum":9007199254740992}}}' });
    expect(schemaPin.check(subject({ live: moved }))).toEqual({ kind: 'refuse', reason: 'the input schema changed since the pin' });
    // A missing side is another guard's to refuse.
    expect(schemaPin.check(subject({ live: undefined }))).toEqual(PASS);
    expect(schemaPin.check(subject({ pin: undefined }))).toEqual(PASS);
  });

  it('description-pin refuses a reworded, added or removed description', () => {
    expect(descriptionPin.check(subject({}))).toEqual(PASS);
    for (const description of ['t does things!', '', undefined]) {
      expect(descriptionPin.check(subject({ live: { ...listed, description } })).kind).toBe('refuse');
    }
    const none = { ...listed, description: undefined };
    expect(descriptionPin.check(subject({ live: none, pin: pinOf(none) }))).toEqual(PASS);
    expect(descriptionPin.check(subject({ live: { ...none, description: '' }, pin: pinOf(none) })).kind).toBe('refuse');
  });

  it('description-pin refuses a title changed, added or removed since the pin', () => {
    const titled = { ...listed, title: 'Search notes' };
    const check = (live: typeof listed, pin = pinOf(titled)) => descriptionPin.check(subject({ live, pin }));
    expect(check(titled)).toEqual(PASS);
    expect(check({ ...titled, title: 'Search and export notes' })).toEqual({ kind: 'refuse', reason: 'the title changed since the pin, and a title is model input' });
    expect(check(listed).kind).toBe('refuse');
    expect(check(titled, pinOf(listed)).kind).toBe('refuse');
    expect(check({ ...titled, title: '' }).kind).toBe('refuse');
  });

  it('execution-pin refuses an execution changed, added or removed since the pin, not one re-serialised', () => {
    const optional = { ...listed, execution: json('{"taskSupport":"optional"}') };
    const check = (live: typeof listed, pin = pinOf(optional)) => executionPin.check(subject({ live, pin }));
    expect(check(optional)).toEqual(PASS);
    expect(check({ ...optional, execution: json('{ "taskSupport" : "optional" }') })).toEqual(PASS);
    expect(check({ ...optional, execution: json('{"taskSupport":"required"}') })).toEqual({ kind: 'refuse', reason: 'how it may be run (execution) changed since the pin' });
    expect(check(listed).kind).toBe('refuse');
    expect(check(optional, pinOf(listed)).kind).toBe('refuse');
    expect(check(listed, pinOf(listed))).toEqual(PASS);
  });

  it('output-schema-pin refuses an output schema changed, added or removed since the pin, not one re-serialised', () => {
    const strict = { ...listed, outputSchema: json('{"type":"object","properties":{"id":{"type":"integer"}},"additionalProperties":false}') };
    const pinnedStrict = pinOf(strict);
    const check = (live: typeof listed, pin = pinnedStrict) => outputSchemaPin.check(subject({ live, pin }));
    expect(check(strict)).toEqual(PASS);
    expect(check({ ...strict, outputSchema: json('{ "additionalProperties" : false, "properties":{"id":{"type":"\\u0069nteger"}},"type":"object"}') })).toEqual(PASS);
    const loosened = { ...strict, outputSchema: json('{"type":"object","properties":{"id":{"type":"integer"}},"additionalProperties":true}') };
    expect(check(loosened)).toEqual({ kind: 'refuse', reason: 'the output schema changed since the pin' });
    expect(check({ ...strict, outputSchema: undefined }).kind).toBe('refuse');
    // A pin without an output schema records a tool listed without one.
    expect(check(listed, pinOf(listed))).toEqual(PASS);
    expect(check(strict, pinOf(listed)).kind).toBe('refuse');
    expect(outputSchemaPin.check(subject({ live: undefined }))).toEqual(PASS);
    expect(outputSchemaPin.check(subject({ live: strict, pin: undefined }))).toEqual(PASS);
  });

  it('hint-consistency checks pinned and live annotations, and records an allowed mismatch', () => {
    const destructive = { ...listed, annotations: json('{"destructiveHint":true}') };
    const local = rule('local_change');
    expect(hintConsistency.check(subject({ rule: local }))).toEqual(PASS);
    expect(hintConsistency.check(subject({ rule: local, live: destructive }))).toEqual({
      kind: 'refuse',
      reason: "the operator classified it local_change, but the annotations the server sends now say destructiveHint: true",
    });
    expect(hintConsistency.check(subject({ rule: local, pin: pinOf(destructive) }))).toEqual({
      kind: 'refuse',
      reason: "the operator classified it local_change, but the pinned annotations say destructiveHint: true",
    });
    expect(
      hintConsistency.check(subject({ rule: rule('local_change', { allowHintMismatch: true }), live: destructive })),
    ).toEqual({
      kind: 'overridden',
      note: "the operator classified it local_change, but the annotations the server sends now say destructiveHint: true",
    });
    expect(hintConsistency.check(subject({ rule: undefined, live: destructive }))).toEqual(PASS);
  });
});

describe('effect-contract at Load', () => {
  const CONTRACT = { readbackTool: 'read_note', readbackArguments: [], checks: [] };
  const writer = tool('write_note');
  /** write_note with the contract, judged among `rules` while the server lists `listed`. */
  const judged = (rules: Record<string, Rule>, listed: string[]) =>
    effectContractSound.check(toolSubject('write_note', writer, pinOf(writer), config(rules), new Set(), ALL_GUARDS, new Set(listed)));
  const write = rule('local_change', { contract: CONTRACT });

  it('passes a tool without a contract, and one whose read-back the operator classified read_only and the server lists', () => {
    expect(judged({ write_note: rule('local_change') }, ['write_note'])).toEqual(PASS);
    expect(judged({ write_note: write, read_note: rule('read_only') }, ['write_note', 'read_note'])).toEqual(PASS);
  });

  it('refuses a contract whose read-back is not classified read_only, or not classified at all', () => {
    const refused = { kind: 'refuse', reason: 'its effect contract reads back with "read_note", which the operator has not classified read_only' };
    expect(judged({ write_note: write, read_note: rule('local_change') }, ['write_note', 'read_note'])).toEqual(refused);
    expect(judged({ write_note: write }, ['write_note', 'read_note'])).toEqual(refused);
  });

  it('refuses a contract whose read-back the server does not list', () => {
    expect(judged({ write_note: write, read_note: rule('read_only') }, ['write_note'])).toEqual({
      kind: 'refuse',
      reason: 'its effect contract reads back with "read_note", which the server does not list',
    });
  });
});

describe('schema guards', () => {
  const on = (schema: string, r = rule('read_only')) =>
    toolSubject('t', tool('t', { schema }), undefined, config({ t: r }), new Set(), ALL_GUARDS);
  const hiding = rule('read_only', { deny: ['sidenote'] });

  it('object-schema refuses an input schema that does not say type: "object"', () => {
    expect(objectSchema.check(on('{"type":"object"}'))).toEqual(PASS);
    for (const schema of ['{}', '{"type":"string"}', '{"type":["object"]}', '{"properties":{}}']) {
      expect(objectSchema.check(on(schema))).toEqual({ kind: 'refuse', reason: 'its input schema does not say type: "object"' });
    }
  });

  it('self-contained refuses a schema that points outside itself', () => {
    expect(selfContained.check(on('{"type":"object","$defs":{"a":{}},"properties":{"a":{"$ref":"#/$defs/a"}}}'))).toEqual(PASS);
    expect(selfContained.check(on('{"type":"object","properties":{"a":{"$ref":"http://127.0.0.1:9/x"}}}'))).toEqual({
      kind: 'refuse',
      reason: 'its input schema is not self-contained: $ref "http://127.0.0.1:9/x" points outside the schema at /properties/a/$ref',
    });
  });

  it('hidden-names-sound refuses a hidden name that is misspelled or mentioned elsewhere', () => {
    const schema = '{"type":"object","properties":{"sidenote":{}}}';
    expect(hiddenNamesSound.check(on(schema, hiding))).toEqual(PASS);
    expect(hiddenNamesSound.check(on(schema, rule('read_only', { deny: ['sidenot'] })))).toEqual({
      kind: 'refuse',
      reason: 'its parameters cannot be hidden soundly: it hides "sidenot", which is not a top-level property',
    });
    expect(hiddenNamesSound.check(on('{"type":"object","properties":{"sidenote":{}},"allOf":[{"required":["sidenote"]}]}', hiding)).kind).toBe('refuse');
  });

  it('schema-compiles refuses a schema the validator cannot compile once hidden names are gone', () => {
    expect(schemaCompiles.check(on('{"type":"object","properties":{"sidenote":{}},"required":["sidenote"]}', hiding))).toEqual(PASS);
    const broken = schemaCompiles.check(on('{"type":"object","properties":{"a":{"type":"no-such-type"}}}'));
    expect(broken).toEqual({ kind: 'refuse', reason: expect.stringContaining('its input schema does not compile without the hidden parameters') });
  });
});

describe('name guards', () => {
  const named = (name: string, r = rule('read_only'), prefix?: string, taken: string[] = []) =>
    toolSubject(name, tool(name), undefined, config({ [name]: r }, { prefix }), new Set(taken), ALL_GUARDS);

  it('the offered name is the rename, else prefix_tool, else the tool', () => {
    expect(named('write_note', rule('read_only', { rename: 'save_note' }), 'nt').offered).toBe('save_note');
    expect(named('write_note', rule('read_only'), 'nt').offered).toBe('nt_write_note');
    expect(named('write_note').offered).toBe('write_note');
  });

  it('name-rules refuses an offered name outside 1 to 64 letters, digits, underscores and hyphens', () => {
    for (const ok of ['a', 'A-b_9', 'x'.repeat(64)]) expect(nameRules.check(named(ok))).toEqual(PASS);
    for (const bad of ['x'.repeat(65), 'has space', 'dot.ted', 'caf\u00e9', 'slash/x']) {
      expect(nameRules.check(named(bad))).toEqual({
        kind: 'refuse',
        reason: `its offered name ${JSON.stringify(bad)} breaks the name rule ^[a-zA-Z0-9_-]{1,64}$`,
      });
    }
    expect(nameRules.check(named('ok', rule('read_only', { rename: '' }))).kind).toBe('refuse');
    expect(nameRules.check(named('x'.repeat(60), rule('read_only'), 'long')).kind).toBe('refuse');
  });

  it('name-unique refuses an offered name an earlier registered tool took', () => {
    expect(nameUnique.check(named('b', rule('read_only', { rename: 'a' }), undefined, ['c']))).toEqual(PASS);
    expect(nameUnique.check(named('b', rule('read_only', { rename: 'a' }), undefined, ['a']))).toEqual({
      kind: 'refuse',
      reason: 'its offered name "a" is already taken by another tool',
    });
    // `taken` holds names in their normal form (src/normal/name.ts): another spelling is that name.
    expect(nameUnique.check(named('b', rule('read_only', { rename: 'A' }), undefined, ['a'])).kind).toBe('refuse');
  });
});

describe('the hint rule', () => {
  const NONE = undefined;
  // [annotations, effects that mismatch]
  const table: [string | undefined, Effect[]][] = [
    [NONE, []],
    ['{}', ['read_only']],
    ['{"readOnlyHint":true}', []],
    ['{"readOnlyHint":false}', ['read_only']],
    ['{"readOnlyHint":"true"}', ['read_only']],
    ['{"destructiveHint":true}', ['read_only', 'local_change', 'remote_change']],
    ['{"destructiveHint":false}', ['read_only']],
    ['{"readOnlyHint":false,"destructiveHint":false}', ['read_only']],
    ['{"readOnlyHint":true,"destructiveHint":true}', []],
    ['{"readOnlyHint":false,"destructiveHint":true}', ['read_only', 'local_change', 'remote_change']],
    ['{"openWorldHint":true,"idempotentHint":true}', ['read_only']],
  ];
  it('says what the server should not have said, as the phrase the refusal quotes', () => {
    expect(hintContradiction('read_only', json('{}'))).toBe('do not say readOnlyHint: true');
    expect(hintContradiction('local_change', json('{"destructiveHint":true}'))).toBe('say destructiveHint: true');
  });

  it.each(table)('annotations %s mismatch exactly %j', (annotations, mismatching) => {
    const parsed = annotations === undefined ? undefined : json(annotations);
    const found = EFFECTS.filter((effect) => hintContradiction(effect, parsed) !== null);
    expect(found).toEqual(mismatching);
  });
});

describe('listing guards', () => {
  const page = (number: number, names: string[], nextCursor?: string): ListingPage => ({
    number,
    tools: names.map((name) => tool(name)),
    nextCursor,
  });
  const limits = { ...DEFAULT_LIMITS, maxPages: 2, maxTools: 3 };

  it('listing-bounds refuses a listing going past max_pages before asking for more', () => {
    const check = listingBounds.begin(limits);
    expect(check(page(1, ['a'], 'c1'))).toBeNull();
    expect(check(page(2, ['b'], 'c2'))).toBe('the listing goes on past max_pages (2)');
    const exact = listingBounds.begin(limits);
    expect(exact(page(1, ['a'], 'c1'))).toBeNull();
    expect(exact(page(2, ['b']))).toBeNull();
  });

  it('listing-bounds refuses a repeated cursor and too many tools, and accepts exactly max_tools', () => {
    const check = listingBounds.begin({ ...limits, maxPages: 10 });
    expect(check(page(1, [], 'same'))).toBeNull();
    expect(check(page(2, [], 'same'))).toBe('page 2 names a cursor seen before');
    const tools = listingBounds.begin(limits);
    expect(tools(page(1, ['a', 'b'], 'c1'))).toBeNull();
    expect(tools(page(2, ['c']))).toBeNull();
    const over = listingBounds.begin(limits);
    expect(over(page(1, ['a', 'b', 'c', 'd']))).toBe('the listing holds more than max_tools (3) tools');
  });

  it('listing-unique refuses a name listed twice on one page or across pages', () => {
    expect(listingUnique.begin(limits)(page(1, ['a', 'b', 'a']))).toBe('the listing names "a" twice');
    const across = listingUnique.begin(limits);
    expect(across(page(1, ['a', 'b'], 'c'))).toBeNull();
    expect(across(page(2, ['b']))).toBe('the listing names "b" twice');
  });
});

describe('presentation guards', () => {
  const shown = { description: 'server text', inputSchema: json('{"type":"object"}'), annotations: json('{"readOnlyHint":true}') };

  it('operator-annotations derives annotations from the effect, never the server', () => {
    const derived = (effect: Effect | undefined) => {
      const annotations = operatorAnnotations.present(shown, effect, undefined, DEFAULT_LIMITS, config({}).server, undefined).annotations;
      return annotations === undefined ? undefined : writeJson(annotations);
    };
    expect(derived('read_only')).toBe('{"readOnlyHint":true,"destructiveHint":false}');
    expect(derived('local_change')).toBe('{"readOnlyHint":false,"destructiveHint":false,"openWorldHint":false}');
    expect(derived('remote_change')).toBe('{"readOnlyHint":false,"destructiveHint":false,"openWorldHint":true}');
    expect(derived('destructive')).toBe('{"readOnlyHint":false,"destructiveHint":true}');
    expect(derived(undefined)).toBeUndefined();
  });

  it("operator-annotations shows the hints the operator's rule states beside the class's, and no other", () => {
    const server = { ...shown, annotations: json('{"readOnlyHint":true,"idempotentHint":false,"openWorldHint":true}') };
    const shownFor = (effect: Effect, overrides: Partial<Rule>) => writeJson(operatorAnnotations.present(server, effect, rule(effect, overrides), DEFAULT_LIMITS, config({}).server, undefined).annotations!);
    expect(shownFor('read_only', { idempotent: true, openWorld: false })).toBe('{"readOnlyHint":true,"destructiveHint":false,"idempotentHint":true,"openWorldHint":false}');
    expect(shownFor('destructive', { idempotent: false })).toBe('{"readOnlyHint":false,"destructiveHint":true,"idempotentHint":false}');
    expect(shownFor('local_change', {})).toBe('{"readOnlyHint":false,"destructiveHint":false,"openWorldHint":false}');
  });

  it("operator-description replaces the description only when the rule has one", () => {
    expect(operatorDescription.present(shown, 'read_only', rule('read_only'), DEFAULT_LIMITS, config({}).server, undefined).description).toBe('server text');
    expect(operatorDescription.present(shown, 'read_only', rule('read_only', { description: 'mine' }), DEFAULT_LIMITS, config({}).server, undefined).description).toBe('mine');
  });
});

describe('session guards', () => {
  it('registered-calls-only hides a name no tool registered under', () => {
    expect(registeredCallsOnly.visible('a', registeredTool('a'), CONTEXT)).toBe(true);
    expect(registeredCallsOnly.visible('b', undefined, CONTEXT)).toBe(false);
  });

  it('nothing-registered stops a broker with no tool', () => {
    expect(nothingRegistered.check(0)).toBe('no tool registered');
    expect(nothingRegistered.check(1)).toBeNull();
  });
});

describe('configuration guards', () => {
  const rules = config({ t: rule('read_only') });
  const pinnedT = manifestOf([listed]);

  it('manifest-required refuses serving without a manifest unless the operator says --unpinned', () => {
    expect(manifestRequired.check({ config: rules, manifest: undefined, unpinned: false })).toContain('no manifest was given');
    expect(manifestRequired.check({ config: rules, manifest: undefined, unpinned: true })).toBeNull();
    expect(manifestRequired.check({ config: rules, manifest: pinnedT, unpinned: false })).toBeNull();
  });

  it('manifest-server refuses a manifest pinned from another server', () => {
    expect(manifestServer.check({ config: rules, manifest: pinnedT, unpinned: false })).toBeNull();
    // Serving --unpinned there is no manifest to compare: that is manifest-required's to judge.
    expect(manifestServer.check({ config: rules, manifest: undefined, unpinned: true })).toBeNull();
    expect(manifestServer.check({ config: rules, manifest: { ...pinnedT, server: 'other' }, unpinned: false })).toBe(
      'the manifest pins server "other" but the configuration names "notes"',
    );
  });

  it('rules-pinned refuses a rule naming a tool the manifest does not pin, and has nothing to judge without one', () => {
    expect(rulesPinned.check({ config: rules, manifest: pinnedT, unpinned: false })).toBeNull();
    const misspelled = config({ t: rule('read_only'), tt: rule('read_only'), u: rule('local_change') });
    expect(rulesPinned.check({ config: misspelled, manifest: pinnedT, unpinned: false })).toBe('the rules name "tt", "u", which the manifest does not pin');
    expect(rulesPinned.check({ config: misspelled, manifest: undefined, unpinned: true })).toBeNull();
  });
});

describe('file guards', () => {
  const file = (mode: number, uid = 1000, regular = true) => ({ isFile: () => regular, mode: 0o100000 | mode, uid }) as unknown as Stats;

  it('private-operator-files reads only a regular file the user owns and nobody else can write', () => {
    expect(privateOperatorFiles.check(file(0o600), 1000)).toBeNull();
    expect(privateOperatorFiles.check(file(0o644), 1000)).toBeNull();
    expect(privateOperatorFiles.check(file(0o620), 1000)).toBe('is writable by its group (mode 620)');
    expect(privateOperatorFiles.check(file(0o602), 1000)).toBe('is writable by others (mode 602)');
    expect(privateOperatorFiles.check(file(0o600, 0), 1000)).toBe('is owned by uid 0, not by the user the broker runs as (1000)');
    expect(privateOperatorFiles.check(file(0o600, 1000, false), 1000)).toBe('is not a regular file');
    expect(privateOperatorFiles.check(file(0o666), undefined)).toBeNull();
  });
});

describe('process guards', () => {
  const plan = { command: 'server', args: ['--flag'], ownGroup: false, watchGroup: false };

  it('own-process-group starts the server in a group of its own', () => {
    expect(ownProcessGroup.launch(plan)).toEqual({ ...plan, ownGroup: true });
  });

  it('parent-death-signal starts the server through setpriv where there is one at a fixed path, keeping its arguments intact, and as it is where there is none', () => {
    const server = { ...plan, command: '-looks-like-an-option' };
    const setpriv = ['/usr/bin/setpriv', '/bin/setpriv'].find((path) => existsSync(path));
    expect(parentDeathSignal.launch(server)).toEqual(
      setpriv === undefined ? server : { ...server, command: setpriv, args: ['--pdeathsig', 'KILL', '--', '-looks-like-an-option', '--flag'] },
    );
  });

  it('parent-death-signal starts the server as it is on a machine without setpriv', () => {
    expect(parentDeathSignalThrough(undefined).launch(plan)).toEqual(plan);
    expect(parentDeathSignalThrough(undefined).name).toBe(parentDeathSignal.name);
  });

  it('group-dies-with-broker asks for a watcher on the group and changes nothing else', () => {
    expect(groupDiesWithBroker.launch(plan)).toEqual({ ...plan, watchGroup: true });
  });
});

describe('the guard registry', () => {
  it('names every guard the reference broker document lists, each once', () => {
    expect([...GUARD_NAMES].sort()).toEqual(
      [
        'listing-bounds',
        'listing-unique',
        'classified',
        'pinned',
        'still-offered',
        'description-pin',
        'schema-pin',
        'output-schema-pin',
        'execution-pin',
        'hint-consistency',
        'operator-annotations',
        'operator-description',
        'icons-pin',
        'icons-safe',
        'registered-calls-only',
        'nothing-registered',
        'object-schema',
        'self-contained',
        'references-resolve',
        'param-headers',
        'hidden-names-sound',
        'schema-compiles',
        'name-rules',
        'name-unique',
        'server-names-unique',
        'foreign-mentions',
        'joined-descriptions',
        'agent-visibility',
        'agent-chain',
        'hidden-params-refused',
        'input-valid',
        'grants',
        'policy',
        'source-to-sink',
        'result-size-bound',
        'server-queue-bound',
        'description-cap',
        'inspect-descriptors',
        'effect-contract',
        'inspect-arguments',
        'server-error-is-tool-error',
        'output-valid',
        'withhold-uninspectable',
        'inspect-results',
        'result-cap',
        'drift-quarantine',
        'drift-closes-session',
        'rediscovery-bounded',
        'manifest-required',
        'manifest-server',
        'rules-pinned',
        'own-process-group',
        'parent-death-signal',
        'group-dies-with-broker',
        'private-operator-files',
        'broker-markers-only',
        'server-error-escaped',
        'redact-server-env',
        'address-guard',
        'no-redirects',
        'http-body-cap',
        'bearer-https-only',
        'feature-pin',
        'resource-uri-allowed',
        'prompt-allowed',
        'inspect-feature-descriptors',
        'prompt-arguments-valid',
        'withhold-feature-blobs',
        'completion-bounded',
        'completion-no-hidden-names',
        'inspect-feature-contents',
        'feature-content-cap',
        'sampling-allowed',
        'sampling-tools-declared',
        'sampling-no-context',
        'sampling-bounds',
        'elicitation-allowed',
        'elicitation-mode-declared',
        'elicitation-url-whole',
        'elicitation-host-distinct',
        'elicitation-no-credentials',
        'elicitation-bounds',
        'request-text-inspected',
        'roots-permitted',
        'log-flood-bound',
        'list-changed-bound',
        'progress-own-token',
        'notice-redacted',
        'notice-escaped',
        'request-state-bound',
        'discover-pinned',
        'cache-hints-private',
        'task-bound',
        'front-door-loopback',
        'origin-check',
        'host-check',
        'front-door-credential',
        'session-binding',
        'session-ids-unguessable',
        'log-lines-attributed',
      ].sort(),
    );
    expect(ALL_GUARDS.file.map((g) => g.name)).toEqual(['private-operator-files']);
    expect(ALL_GUARDS.config.map((g) => g.name)).toEqual(['manifest-required', 'manifest-server', 'rules-pinned']);
    expect(ALL_GUARDS.process.map((g) => g.name)).toEqual(['own-process-group', 'parent-death-signal', 'group-dies-with-broker']);
    expect(ALL_GUARDS.address.map((g) => g.name)).toEqual(['address-guard']);
    expect(ALL_GUARDS.inputState.map((g) => g.name)).toEqual(['request-state-bound']);
    expect(ALL_GUARDS.discover.map((g) => g.name)).toEqual(['discover-pinned']);
    expect(ALL_GUARDS.cacheHints.map((g) => g.name)).toEqual(['cache-hints-private']);
    expect(ALL_GUARDS.task.map((g) => g.name)).toEqual(['task-bound']);
    expect(ALL_GUARDS.http.map((g) => g.name)).toEqual(['no-redirects', 'http-body-cap', 'bearer-https-only']);
    expect(ALL_GUARDS.tool.map((g) => g.name)).toEqual([
      'still-offered',
      'pinned',
      'classified',
      'schema-pin',
      'output-schema-pin',
      'execution-pin',
      'description-pin',
      'hint-consistency',
      'object-schema',
      'self-contained',
      'references-resolve',
      'param-headers',
      'hidden-names-sound',
      'schema-compiles',
      'inspect-descriptors',
      'effect-contract',
      'name-rules',
      'name-unique',
    ]);
    expect(ALL_GUARDS.visibility.map((g) => g.name)).toEqual(['registered-calls-only', 'agent-visibility']);
    expect(ALL_GUARDS.call.map((g) => g.name)).toEqual(['drift-quarantine', 'agent-chain', 'hidden-params-refused', 'input-valid', 'inspect-arguments', 'grants', 'policy', 'source-to-sink']);
    expect(ALL_GUARDS.serverTools.map((g) => g.name)).toEqual(['joined-descriptions']);
    expect(ALL_GUARDS.result.map((g) => g.name)).toEqual([
      'broker-markers-only',
      'server-error-is-tool-error',
      'output-valid',
      'effect-contract',
      'withhold-uninspectable',
      'foreign-mentions',
    ]);
    expect(ALL_GUARDS.fleet.map((g) => g.name)).toEqual(['server-names-unique', 'foreign-mentions']);
    expect(ALL_GUARDS.drift.map((g) => g.name)).toEqual(['drift-quarantine', 'drift-closes-session']);
    expect(ALL_GUARDS.feature.map((g) => g.name)).toEqual([
      'feature-pin',
      'resource-uri-allowed',
      'prompt-allowed',
      'icons-safe',
      'inspect-feature-descriptors',
      'prompt-arguments-valid',
      'withhold-feature-blobs',
      'completion-bounded',
      'completion-no-hidden-names',
      'inspect-feature-contents',
      'feature-content-cap',
    ]);
    expect(ALL_GUARDS.outbound.map((g) => g.name)).toEqual(['inspect-descriptors', 'inspect-results', 'redact-server-env', 'server-error-escaped', 'description-cap', 'result-cap']);
  });

  it.each(GUARD_NAMES.map((name) => [name]))('--disable-guard %s removes exactly that guard', (name) => {
    const selected = new Set(Object.values(selectGuards([name])).flatMap((list: readonly { name: string }[]) => list.map((g) => g.name)));
    expect([...selected].sort()).toEqual(GUARD_NAMES.filter((n) => n !== name).sort());
  });

  it('refuses an unknown guard name, naming it and every guard there is', () => {
    expect(() => selectGuards(['schema_pin'])).toThrow(ConfigError);
    expect(() => selectGuards(['schema_pin'])).toThrow(`unknown guard "schema_pin"; the guards are: ${GUARD_NAMES.join(', ')}`);
  });
});
