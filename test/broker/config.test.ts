// The operator's configuration is read strictly: unknown fields, bad effects and out-of-range
// limits are refused, and defaults fill only what the operator left out.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, loadConfig, parseConfig } from '../../src/config.js';
import { ConfigError } from '../../src/errors.js';
import { readJson } from '../../src/json/reader.js';

const SERVER = '"server":{"id":"notes","command":"node","args":["s.js"]}';
const parse = (text: string) => parseConfig(readJson(text));

describe('parseConfig', () => {
  it('reads a full configuration', () => {
    const config = parse(`{"server":{"id":"notes","command":"node","args":["a","b"],"env":{"TOKEN":"t"}},
      "rules":{"search_notes":{"effect":"read_only"},
               "write_note":{"effect":"local_change","description":"Mine","allow_hint_mismatch":true,"call_timeout_ms":500}},
      "limits":{"max_pages":3,"max_tools":10,"call_timeout_ms":1e3,"connect_timeout_ms":2000}}`);
    expect(config.server).toEqual({ id: 'notes', command: 'node', args: ['a', 'b'], env: new Map([['TOKEN', 't']]) });
    expect(config.rules.get('search_notes')).toEqual({
      effect: 'read_only',
      description: undefined,
      allowHintMismatch: false,
      callTimeoutMs: undefined,
    });
    expect(config.rules.get('write_note')).toEqual({
      effect: 'local_change',
      description: 'Mine',
      allowHintMismatch: true,
      callTimeoutMs: 500,
    });
    expect(config.limits).toEqual({ maxPages: 3, maxTools: 10, callTimeoutMs: 1000, connectTimeoutMs: 2000 });
  });

  it('fills the documented defaults', () => {
    const config = parse(`{${SERVER},"rules":{},"limits":{"max_pages":7}}`);
    expect(config.limits).toEqual({ ...DEFAULT_LIMITS, maxPages: 7 });
    expect(DEFAULT_LIMITS).toEqual({ maxPages: 100, maxTools: 1000, callTimeoutMs: 10000, connectTimeoutMs: 10000 });
    expect(parse(`{${SERVER},"rules":{}}`).limits).toEqual(DEFAULT_LIMITS);
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
  ])('refuses %s', (text, message) => {
    expect(() => parse(text)).toThrow(ConfigError);
    expect(() => parse(text)).toThrow(message);
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
    expect(() => loadConfig(path)).toThrow('duplicate key "t"');
    expect(() => loadConfig(join(dir, 'missing.json'))).toThrow('cannot read the configuration');
    writeFileSync(path, Buffer.from([0x7b, 0xff, 0x7d]));
    expect(() => loadConfig(path)).toThrow('is not valid JSON');
  });
});
