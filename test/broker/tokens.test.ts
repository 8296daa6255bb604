// The broker's credentials (CRD-1, CRD-2): a map from hostname to token read from its own
// environment, looked up by exact hostname, sent over https only.

import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { bearerHttpsOnly } from '../../src/guards/http.js';
import { DEFAULT_LIMITS } from '../../src/operator/config.js';
import { unguardedHttp } from '../../src/upstream/http.js';
import { readTokens, tokenEnv, tokenFor, TOKENS_VARIABLE } from '../../src/upstream/tokens.js';

const tokens = (value: string) => readTokens({ [TOKENS_VARIABLE]: value });

describe('readTokens', () => {
  it('reads nothing when the variable is unset or empty', () => {
    expect(readTokens({}).size).toBe(0);
    expect(tokens('').size).toBe(0);
  });

  it('maps each hostname, as a URL carries it, to its token', () => {
    const map = tokens('{"MCP.Example.com":"t-1","[::1]":"t-2","10.0.0.5":"t-3"}');
    expect([...map]).toEqual([
      ['mcp.example.com', 't-1'],
      ['[::1]', 't-2'],
      ['10.0.0.5', 't-3'],
    ]);
  });

  it.each([
    ['not json', 'is not JSON'],
    ['["mcp.example.com","t"]', 'must be a JSON object'],
    // A string's characters would read as hostnames ("0", "1", ...) mapped to one-letter tokens.
    ['"ab"', 'must be a JSON object'],
    ['5', 'must be a JSON object'],
    ['null', 'must be a JSON object'],
    ['true', 'must be a JSON object'],
    ['{"[::1]:8443":"t"}', 'is not a bare hostname'],
    ['{"[::1]/mcp":"t"}', 'is not a bare hostname'],
    ['{"https://mcp.example.com":"t"}', 'is not a bare hostname'],
    ['{"mcp.example.com:443":"t"}', 'is not a bare hostname'],
    ['{"user@mcp.example.com":"t"}', 'is not a bare hostname'],
    ['{"mcp.example.com":""}', 'must be a non-empty string'],
    ['{"mcp.example.com":"a b"}', 'must be a non-empty string'],
    ['{"mcp.example.com":1}', 'must be a non-empty string'],
    ['{"mcp.example.com":"a","MCP.example.com":"b"}', 'mapped twice'],
  ])('refuses %s', (value, message) => {
    expect(() => tokens(value)).toThrow(ConfigError);
    expect(() => tokens(value)).toThrow(message);
  });

  it('never quotes a token when it refuses one', () => {
    expect(() => tokens('{"mcp.example.com":"secret\\nvalue"}')).toThrow(/^(?!.*secret)/s);
  });
});

describe('tokenFor', () => {
  const map = tokens('{"mcp.example.com":"t-1","example.com":"t-0"}');

  it('finds the token of the exact hostname, whatever the port or path', () => {
    expect(tokenFor(map, new URL('https://mcp.example.com:8443/mcp'))).toBe('t-1');
    expect(tokenFor(map, new URL('https://example.com/'))).toBe('t-0');
  });

  it('finds none for a subdomain, a look-alike or a name merely containing the host', () => {
    for (const url of ['https://api.mcp.example.com/', 'https://evilmcp.example.com/', 'https://mcp.example.com.evil.test/', 'https://example.community/']) {
      expect(tokenFor(map, new URL(url)), url).toBeUndefined();
    }
  });
});

describe('bearer-https-only', () => {
  it('keeps the token for https and drops it for plain http', () => {
    const plan = unguardedHttp('t-1');
    expect(bearerHttpsOnly.plan(plan, DEFAULT_LIMITS, new URL('https://mcp.example.com/')).bearer).toBe('t-1');
    expect(bearerHttpsOnly.plan(plan, DEFAULT_LIMITS, new URL('http://mcp.example.com/')).bearer).toBeUndefined();
  });
});

describe('tokenEnv', () => {
  const env = { [TOKENS_VARIABLE]: '{"mcp.example.com":"t-1234567"}' };

  it('names the host\'s token for redaction, whatever the scheme', () => {
    expect([...tokenEnv(new URL('https://mcp.example.com/mcp'), env)]).toEqual([['GAUNTLET_BROKER_TOKENS[mcp.example.com]', 't-1234567']]);
    expect(tokenEnv(new URL('http://mcp.example.com/mcp'), env).size).toBe(1);
  });

  it('holds nothing for a host with no token', () => {
    expect(tokenEnv(new URL('https://other.example.com/'), env).size).toBe(0);
  });
});
