// The address guard's judgement of a name through a resolver the test stands in for (NET-4): a
// name is as public as every address it resolves to, a name that resolves to nothing or fails is
// refused with the reason, and a refused name is refused whatever it would resolve to, before
// anyone is asked. The namespace scenarios prove this with real DNS in the child broker; here it
// runs in this process, where Stryker's mutants of the guard are seen (docs/mutation.md).

import { describe, expect, it } from 'vitest';
import { addressGuard } from '../../src/guards/address.js';
import type { Resolved, Resolver } from '../../src/net/resolve.js';

const v4 = (address: string): Resolved => ({ address, family: 4 });

/** A resolver answering from a table, recording every name it is asked. */
function table(answers: Readonly<Record<string, readonly Resolved[] | Error>>): { resolve: Resolver; asked: string[] } {
  const asked: string[] = [];
  const resolve: Resolver = async (name) => {
    asked.push(name);
    const answer = answers[name];
    if (answer === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { resolve, asked };
}

const judge = (url: string, resolve: Resolver) => addressGuard.refuse(new URL(url), {}, resolve);

describe('address-guard on a name', () => {
  it('lets a name through when every address it resolves to is public', async () => {
    const { resolve, asked } = table({ 'notes.example.net': [v4('93.184.215.14'), { address: '2606:4700::1111', family: 6 }] });
    expect(await judge('https://notes.example.net/mcp', resolve)).toBeNull();
    expect(asked).toEqual(['notes.example.net']);
  });

  it('refuses a name when any one of its addresses is not public, naming that address', async () => {
    const { resolve } = table({ 'notes.example.net': [v4('93.184.215.14'), v4('10.0.0.5'), v4('127.0.0.1')] });
    expect(await judge('https://notes.example.net/mcp', resolve)).toBe('"notes.example.net" resolves to 10.0.0.5 is private (10.0.0.0/8)');
  });

  it('refuses a name that resolves to no address', async () => {
    const { resolve } = table({ 'empty.example.net': [] });
    expect(await judge('https://empty.example.net/', resolve)).toBe('"empty.example.net" resolves to no address');
  });

  it('refuses a name that does not resolve, with the resolver\'s code or, without one, its message', async () => {
    expect(await judge('https://gone.example.net/', table({}).resolve)).toBe('"gone.example.net" does not resolve (ENOTFOUND)');
    const { resolve } = table({ 'odd.example.net': new Error('the resolver broke') });
    expect(await judge('https://odd.example.net/', resolve)).toBe('"odd.example.net" does not resolve (the resolver broke)');
  });

  it('refuses a local or reserved name even when it would resolve to a public address, and asks no one', async () => {
    const { resolve, asked } = table({ localhost: [v4('93.184.215.14')], 'api.internal': [v4('93.184.215.14')] });
    expect(await judge('http://localhost:8080/', resolve)).toBe('"localhost" is a local name');
    expect(await judge('http://api.internal/', resolve)).toContain('a local or reserved suffix');
    expect(asked).toEqual([]);
  });
});
