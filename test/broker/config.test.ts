// The operator's configuration is read strictly: unknown fields, bad effects and out-of-range
// limits are refused, and defaults fill only what the operator left out.

import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, loadConfig, parseConfig, parseConfigs } from '../../src/operator/config.js';
import { ALL_GUARDS } from '../../src/guards/registry.js';
import { ConfigError } from '../../src/errors.js';
import { readJson } from '../../src/json/reader.js';
import { writeJson } from '../../src/json/writer.js';
import { rule } from './builders.js';

const SERVER = '"server":{"id":"notes","command":"node","args":["s.js"]}';
const parse = (text: string) => parseConfig(readJson(text));

describe('parseConfig', () => {
  it('reads a full configuration', () => {
    const config = parse(`{"server":{"id":"notes","command":"node","args":["a","b"],"env":{"TOKEN":"t"}},
      "rules":{"search_notes":{"effect":"read_only"},
               "write_note":{"effect":"local_change","description":"Mine","allow_hint_mismatch":true,"call_timeout_ms":500}},
      "limits":{"max_pages":3,"max_tools":10,"call_timeout_ms":1e3,"connect_timeout_ms":2000}}`);
    expect(config.server).toEqual({ id: 'notes', command: 'node', args: ['a', 'b'], env: new Map([['TOKEN', 't']]), prefix: undefined });
    expect(config.rules.get('search_notes')).toEqual(rule('read_only'));
    expect(config.rules.get('write_note')).toEqual(
      rule('local_change', { description: 'Mine', allowHintMismatch: true, callTimeoutMs: 500 }),
    );
    expect(config.limits).toEqual({ ...DEFAULT_LIMITS, maxPages: 3, maxTools: 10, callTimeoutMs: 1000, connectTimeoutMs: 2000 });
  });

  it("reads the hints a rule states, and refuses an open_world that contradicts a change class", () => {
    const rules = (rule: string) => parse(`{${SERVER},"rules":{"t":${rule}}}`).rules.get('t');
    expect(rules('{"effect":"read_only","idempotent":true,"open_world":false}')).toEqual(rule('read_only', { idempotent: true, openWorld: false }));
    expect(rules('{"effect":"remote_change","open_world":true}')).toEqual(rule('remote_change', { openWorld: true }));
    expect(() => rules('{"effect":"local_change","open_world":true}')).toThrow('config.rules["t"].open_world contradicts effect local_change');
    expect(() => rules('{"effect":"remote_change","open_world":false}')).toThrow('contradicts effect remote_change');
    expect(() => rules('{"effect":"read_only","idempotent":"yes"}')).toThrow('idempotent');
  });

  it('withholds non-text content unless the operator says non_text: pass, and refuses any other value', () => {
    expect(parse(`{${SERVER},"rules":{}}`).nonText).toBe('withhold');
    expect(parse(`{${SERVER},"rules":{},"non_text":"withhold"}`).nonText).toBe('withhold');
    expect(parse(`{${SERVER},"rules":{},"non_text":"pass"}`).nonText).toBe('pass');
    expect(() => parse(`{${SERVER},"rules":{},"non_text":"inspect"}`)).toThrow('config.non_text must be "withhold" or "pass"');
    expect(() => parse(`{${SERVER},"rules":{},"non_text":true}`)).toThrow('config.non_text must be a string');
  });

  it('reads every server field and limit under its own name, each limit up to its bound and not past it', () => {
    const most = 16 * 1024 * 1024;
    const config = parse(`{"server":{"id":"notes","command":"node","args":["a"],"env":{"K":"v"},"source_version":"1.2.3"},"rules":{},
      "limits":{"max_result_chars":${most},"max_description_chars":${most},"max_message_bytes":${most}},
      "server_requests":{"sampling":{"allow":true}}}`);
    expect(config.server).toEqual({ id: 'notes', command: 'node', args: ['a'], env: new Map([['K', 'v']]), prefix: undefined, sourceVersion: '1.2.3' });
    expect(config.limits).toEqual({ ...DEFAULT_LIMITS, maxResultChars: most, maxDescriptionChars: most, maxMessageBytes: most });
    expect(config.serverRequests.sampling.allow).toBe(true);
    for (const key of ['max_result_chars', 'max_description_chars', 'max_message_bytes']) {
      expect(() => parse(`{${SERVER},"rules":{},"limits":{"${key}":${most + 1}}}`)).toThrow(`config.limits.${key}`);
    }
    expect(parse('{"server":{"id":"notes","command":"node"},"rules":{}}').server).toMatchObject({ args: [], env: new Map() });
  });

  it('refuses what only a started server has on a server reached by URL, naming the field', () => {
    for (const [key, value] of [['command', '"node"'], ['args', '["x"]'], ['env', '{"K":"v"}']]) {
      expect(() => parse(`{"server":{"id":"notes","url":"https://mcp.example.com/mcp","${key}":${value}},"rules":{}}`)).toThrow(
        `config.server.${key} is for a server the broker starts; this one is reached by url`,
      );
    }
  });

  it('reads the call-path fields: rules, grants, policy, agents and the prefix', () => {
    const config = parse(`{"server":{"id":"notes","command":"node","prefix":"nt"},
      "rules":{"write_note":{"effect":"local_change","rename":"save_note","deny":["sidenote"],
        "fixed":{"folder":"inbox","n":9007199254740993},"permission":"notes.write","data_classification":"secret"}},
      "grants":[{"permission":"notes.write","expires_at":"2999-01-01T00:00:00Z"}],
      "policy":{"local_change":"approve","destructive":"deny"},
      "agents":{"researcher":{"tools":["read_note"]},"writer":{"tools":["write_note","read_note"]}}}`);
    expect(config.server.prefix).toBe('nt');
    const rule = config.rules.get('write_note');
    expect(rule).toMatchObject({ rename: 'save_note', deny: ['sidenote'], permission: 'notes.write', dataClassification: 'secret' });
    expect(rule?.fixed.map(([name, value]) => [name, writeJson(value)])).toEqual([
      ['folder', '"inbox"'],
      ['n', '9007199254740993'],
    ]);
    expect(config.grants).toEqual([{ id: 'grants[0]', permission: 'notes.write', expiresAt: Date.UTC(2999, 0, 1) }]);
    expect(config.policy).toEqual({ read_only: 'allow', local_change: 'approve', remote_change: 'allow', destructive: 'deny' });
    expect(config.agents).toEqual(
      new Map([
        ['researcher', new Set(['read_note'])],
        ['writer', new Set(['write_note', 'read_note'])],
      ]),
    );
  });

  it('fills the documented defaults', () => {
    const config = parse(`{${SERVER},"rules":{},"limits":{"max_pages":7}}`);
    expect(config.limits).toEqual({ ...DEFAULT_LIMITS, maxPages: 7 });
    expect(DEFAULT_LIMITS).toEqual({
      maxPages: 100,
      maxTools: 1000,
      callTimeoutMs: 10000,
      connectTimeoutMs: 10000,
      maxResultChars: 20000,
      maxDescriptionChars: 1000,
      maxMessageBytes: 4194304,
    });
    const bare = parse(`{${SERVER},"rules":{"t":{"effect":"read_only"}}}`);
    expect(bare.limits).toEqual(DEFAULT_LIMITS);
    expect(bare.policy).toEqual({ read_only: 'allow', local_change: 'allow', remote_change: 'allow', destructive: 'approve' });
    expect(bare.grants).toEqual([]);
    expect(bare.agents).toBeUndefined();
    expect(bare.server.prefix).toBeUndefined();
    expect(bare.rules.get('t')).toMatchObject({ deny: [], fixed: [], permission: undefined, rename: undefined, dataClassification: 'workspace' });
  });

  it.each([
    [`{${SERVER},"rules":{},"extra":1}`, 'config has an unknown field "extra"'],
    [`{${SERVER}}`, 'config.rules is required'],
    ['{"rules":{}}', 'config.server must be an object'],
    ['{"server":{"id":"notes","command":"node","cwd":"/"},"rules":{}}', 'unknown field "cwd"'],
    ['{"server":{"id":"no tes","command":"node"},"rules":{}}', 'config.server.id must match'],
    ['{"server":{"id":"notes","command":""},"rules":{}}', 'config.server.command must not be empty'],
    ['{"server":{"id":"notes","command":"node","args":[1]},"rules":{}}', 'args must be an array of strings'],
    ['{"server":{"id":"notes","command":"node","env":{"A-B":"x"}},"rules":{}}', 'invalid variable "A-B"'],
    ['{"server":{"id":"notes","command":"node","env":{"A":1}},"rules":{}}', 'config.server.env.A must be a string'],
    ['{"server":{"id":"notes","command":"node","args":["a\\u0000"]},"rules":{}}', 'contains NUL'],
    ['{"server":{"id":"notes","url":"not a url"},"rules":{}}', 'config.server.url must be an absolute URL'],
    ['{"server":{"id":"notes","url":"https://mcp.example.com/","command":"node"},"rules":{}}', 'config.server.command is for a server the broker starts'],
    ['{"server":{"id":"notes","url":"https://mcp.example.com/","env":{}},"rules":{}}', 'config.server.env is for a server the broker starts'],
    ['{"server":{"id":"notes","url":"https://mcp.example.com/","token":"t0ken"},"rules":{}}', 'config.server.token is refused: tokens come only from the broker\'s environment, GAUNTLET_BROKER_TOKENS'],
    ['{"server":{"id":"notes","url":"https://mcp.example.com/","Headers":{"Authorization":"Bearer t0ken"}},"rules":{}}', 'config.server.Headers is refused'],
    ['{"server":{"id":"notes","url":"https://mcp.example.com/","token_env":"GAUNTLET_OPERATOR_TOKEN"},"rules":{}}', 'config.server.token_env is refused'],
    ['{"server":{"id":"notes","command":"node","api_key":"k"},"rules":{}}', 'config.server.api_key is refused'],
    [`{${SERVER},"rules":{"t":{}}}`, 'config.rules["t"].effect is required'],
    [`{${SERVER},"rules":{"t":{"effect":"readonly"}}}`, 'effect must be one of read_only, local_change, remote_change, destructive'],
    [`{${SERVER},"rules":{"t":{"effect":"read_only","side_effect":"x"}}}`, 'unknown field "side_effect"'],
    [`{${SERVER},"rules":{"t":{"effect":"read_only","allow_hint_mismatch":"yes"}}}`, 'must be true or false'],
    [`{${SERVER},"rules":{"t":{"effect":"read_only","description":7}}}`, 'description must be a string'],
    [`{${SERVER},"rules":[]}`, 'config.rules must be an object'],
    [`{${SERVER},"rules":{},"limits":{"max_pages":0}}`, 'max_pages must be an integer from 1 to 10000'],
    [`{${SERVER},"rules":{},"limits":{"max_tools":1.5}}`, 'max_tools must be an integer'],
    [`{${SERVER},"rules":{},"limits":{"call_timeout_ms":2147483648}}`, 'call_timeout_ms must be an integer'],
    [`{${SERVER},"rules":{},"limits":{"connect_timeout_ms":"5"}}`, 'connect_timeout_ms must be an integer'],
    [`{${SERVER},"rules":{},"limits":{"max_page":5}}`, 'unknown field "max_page"'],
    [`{${SERVER},"rules":{"t":{"effect":"read_only","timeout_ms":5}}}`, 'unknown field "timeout_ms"'],
    [`{${SERVER},"rules":{"t":{"effect":"read_only","rename":1}}}`, 'rename must be a string'],
    [`{${SERVER},"rules":{"t":{"effect":"read_only","deny":"a"}}}`, 'deny must be an array of strings'],
    [`{${SERVER},"rules":{"t":{"effect":"read_only","deny":["a","a"]}}}`, 'deny names "a" twice'],
    [`{${SERVER},"rules":{"t":{"effect":"read_only","deny":["a"],"fixed":{"a":1}}}}`, 'deny names "a", which fixed also names'],
    [`{${SERVER},"rules":{"t":{"effect":"read_only","fixed":[1]}}}`, 'fixed must be an object'],
    [`{${SERVER},"rules":{"t":{"effect":"read_only","permission":""}}}`, 'permission must not be empty'],
    [`{${SERVER},"rules":{"t":{"effect":"read_only","data_classification":7}}}`, 'data_classification must be a string'],
    [`{${SERVER},"rules":{},"grants":{}}`, 'config.grants must be an array'],
    [`{${SERVER},"rules":{},"grants":[{"permission":"p"}]}`, 'config.grants[0].expires_at is required'],
    [`{${SERVER},"rules":{},"grants":[{"permission":"p","expires_at":"2999-01-01"}]}`, 'expires_at must be an RFC 3339 date-time'],
    [`{${SERVER},"rules":{},"grants":[{"permission":"p","expires_at":"2999-01-01T00:00:00Z","scope":"x"}]}`, 'unknown field "scope"'],
    [`{${SERVER},"rules":{},"grants":[{"id":"","permission":"p","expires_at":"2999-01-01T00:00:00Z"}]}`, 'config.grants[0].id must not be empty'],
    [
      `{${SERVER},"rules":{},"grants":[{"id":"g","permission":"p","expires_at":"2999-01-01T00:00:00Z"},{"id":"g","permission":"q","expires_at":"2999-01-01T00:00:00Z"}]}`,
      'the id "g" names two grants',
    ],
    [`{${SERVER},"rules":{},"policy":{"destructive":"ask"}}`, 'config.policy.destructive must be one of allow, deny, approve'],
    [`{${SERVER},"rules":{},"policy":{"read-only":"allow"}}`, 'config.policy has an unknown field "read-only"'],
    [`{${SERVER},"rules":{},"agents":{"a":{"tools":"x"}}}`, 'tools must be an array of strings'],
    [`{${SERVER},"rules":{},"agents":{"a":{}}}`, 'config.agents["a"].tools is required'],
    [`{${SERVER},"rules":{},"agents":{"a":{"tools":[],"role":"x"}}}`, 'unknown field "role"'],
    [`{${SERVER},"rules":{},"agents":{"":{"tools":[]}}}`, 'an empty id'],
    ['{"server":{"id":"notes","command":"node","prefix":1},"rules":{}}', 'config.server.prefix must be a string'],
    [`{${SERVER},"rules":{"w":{"effect":"local_change","contract":{"readback":{"tool":"r"},"checks":[]}}}}`, 'config.rules["w"].contract.checks must name at least one check'],
    [`{${SERVER},"rules":{"w":{"effect":"local_change","contract":{"readback":{"tool":"r","arguments":{"id":{"from":"readback","pointer":"/id"}}},"checks":[{"left":{"from":"result","pointer":""},"op":"present"}]}}}}`, 'config.rules["w"].contract.readback.arguments["id"].from must be arguments or result'],
    [`{${SERVER},"rules":{"w":{"effect":"local_change","contract":{"readback":{"tool":"r"},"checks":[{"left":{"from":"result","pointer":""},"op":"matches","right":{"from":"result","pointer":""}}]}}}}`, 'config.rules["w"].contract.checks[0].op must be one of equals, not_equals, less_than, greater_than, contains, present'],
    [`{${SERVER},"rules":{"w":{"effect":"local_change","contract":{"readback":{"tool":"r"},"checks":[{"left":{"from":"result","pointer":""},"op":"present","right":{"from":"result","pointer":""}}]}}}}`, 'config.rules["w"].contract.checks[0].right must be absent for present'],
    [`{${SERVER},"rules":{"w":{"effect":"local_change","contract":{"readback":{"tool":"r"},"checks":[{"left":{"from":"result","pointer":""},"op":"equals"}]}}}}`, 'config.rules["w"].contract.checks[0].right is required for equals'],
    [`{${SERVER},"rules":{"w":{"effect":"local_change","contract":{"readback":{"tool":"r"},"checks":[{"left":{"from":"elsewhere","pointer":""},"op":"present"}]}}}}`, 'config.rules["w"].contract.checks[0].left.from must be one of arguments, result, readback'],
    [`{${SERVER},"rules":{"w":{"effect":"local_change","contract":{"readback":{"tool":"r"},"checks":[{"left":{"from":"result","pointer":"id"},"op":"present"}]}}}}`, 'config.rules["w"].contract.checks[0].left.pointer must be an RFC 6901 JSON Pointer'],
    [`{${SERVER},"rules":{"w":{"effect":"local_change","contract":{"readback":{"tool":""},"checks":[{"left":{"from":"result","pointer":""},"op":"present"}]}}}}`, 'config.rules["w"].contract.readback.tool must not be empty'],
    [`{${SERVER},"rules":{},"resources":{}}`, 'config.resources.allow is required'],
    [`{${SERVER},"rules":{},"resources":{"allow":["notes/{id}"]}}`, 'config.resources.allow names "notes/{id}", which is not an absolute URI or URI template'],
    [`{${SERVER},"rules":{},"prompts":{"p":{"arguments":1}}}`, 'config.prompts["p"] has an unknown field "arguments"'],
    ['{"servers":[],"rules":{}}', 'config.rules is for one server; with servers, each entry names its own'],
    ['{"servers":[{"id":"a","command":"node","rules":{}}],"server":{"id":"b","command":"node"}}', 'config.server is for one server; with servers, each entry names its own'],
    ['{"servers":[{"id":"a","command":"node","rules":{}}],"resources":{"allow":["file:///x"]}}', 'config.resources is offered from one server only; a configuration naming several servers offers tools alone'],
    ['{"servers":[{"id":"a","command":"node","rules":{}}],"prompts":{}}', 'config.prompts is offered from one server only'],
    ['{"servers":[]}', 'config.servers must name at least one server'],
    ['{"servers":[1]}', 'config.servers[0] must be an object'],
    ['{"servers":[{"id":"a","command":"node"}]}', 'config.servers[0].rules is required'],
    ['{"servers":[{"id":"a","command":"node","rules":[]}]}', 'config.servers[0].rules must be an object'],
    ['{"servers":[{"id":"a","command":"node","rules":{},"cwd":"/"}]}', 'config.servers[0] has an unknown field "cwd"'],
    ['{"servers":[{"id":"a","command":"node","rules":{}},{"id":"a","command":"node","rules":{}}]}', 'config.servers: the id "a" names two servers'],
  ])('refuses %s', (text, message) => {
    expect(() => parse(text)).toThrow(ConfigError);
    expect(() => parse(text)).toThrow(message);
  });
});

describe('parseConfigs', () => {
  const parseAll = (text: string) => parseConfigs(readJson(text));

  it('reads several servers, each with its own rules, sharing the rest; parseConfig wants one', () => {
    const text = '{"servers":[{"id":"a","command":"node","rules":{"t":{"effect":"read_only"}}},{"id":"b","url":"https://mcp.example.com/","rules":{}}],"policy":{"destructive":"deny"}}';
    const configs = parseAll(text);
    expect(configs.map((c) => [c.server.id, [...c.rules.keys()], c.policy.destructive, c.resources, c.prompts])).toEqual([
      ['a', ['t'], 'deny', undefined, undefined],
      ['b', [], 'deny', undefined, undefined],
    ]);
    expect(() => parse(text)).toThrow(new ConfigError('config names several servers where one is expected'));
  });

  it('reads the resources and prompts one server offers, and a write contract', () => {
    const config = parse(`{${SERVER},"rules":{"w":{"effect":"local_change","contract":{
      "readback":{"tool":"r","arguments":{"id":{"from":"arguments","pointer":"/id"}}},
      "checks":[{"left":{"from":"readback","pointer":"/text"},"op":"equals","right":{"from":"arguments","pointer":"/text"}},{"left":{"from":"result","pointer":""},"op":"present"}]}}},
      "resources":{"allow":["file:///notes/","notes://{id}/body"]},"prompts":{"summarise":{}}}`);
    expect(config.resources).toEqual({ allow: ['file:///notes/', 'notes://{id}/body'] });
    expect(config.prompts).toEqual(new Set(['summarise']));
    expect(config.rules.get('w')?.contract).toEqual({
      readbackTool: 'r',
      readbackArguments: [['id', { from: 'arguments', pointer: '/id' }]],
      checks: [
        { left: { from: 'readback', pointer: '/text' }, op: 'equals', right: { from: 'arguments', pointer: '/text' } },
        { left: { from: 'result', pointer: '' }, op: 'present', right: undefined },
      ],
    });
    const bare = parse(`{${SERVER},"rules":{}}`);
    expect([bare.resources, bare.prompts]).toEqual([undefined, undefined]);
  });
});

describe('loadConfig', () => {
  let dir = '';
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a file with a duplicate key, which JSON.parse would quietly resolve', () => {
    dir = mkdtempSync(join(tmpdir(), 'broker-config-'));
    const path = join(dir, 'c.json');
    writeFileSync(path, `{${SERVER},"rules":{"t":{"effect":"destructive"},"t":{"effect":"read_only"}}}`);
    expect(() => loadConfig(path, ALL_GUARDS.file)).toThrow('duplicate key "t"');
    expect(() => loadConfig(join(dir, 'missing.json'), ALL_GUARDS.file)).toThrow('cannot read the configuration');
    writeFileSync(path, Buffer.from([0x7b, 0xff, 0x7d]));
    expect(() => loadConfig(path, ALL_GUARDS.file)).toThrow('is not valid JSON');
  });

  it('refuses, before reading it, a file others can write or one that is not a regular file', () => {
    dir = mkdtempSync(join(tmpdir(), 'broker-config-'));
    const path = join(dir, 'c.json');
    writeFileSync(path, 'not even JSON', { mode: 0o600 });
    chmodSync(path, 0o666);
    expect(() => loadConfig(path, ALL_GUARDS.file)).toThrow(/guard private-operator-files refused the configuration .*: it is writable by its group \(mode 666\)/);
    expect(() => loadConfig(path, [])).toThrow('is not valid JSON');
    // A directory opens as well, and is no regular file.
    expect(() => loadConfig(dir, ALL_GUARDS.file)).toThrow('refused the configuration');
    if (process.platform !== 'linux') return;
    // A FIFO nobody writes to would block a plain open forever; it is refused at once instead.
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    expect(() => loadConfig(fifo, ALL_GUARDS.file)).toThrow('it is not a regular file');
  });
});
