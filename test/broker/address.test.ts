// The address guard's judgement of a server URL (docs/network.md): every non-public range, every
// alternative spelling of a refused address, local names, and the operator's opt-in. No name
// that needs resolving is given to the guard here: resolution is the namespace scenarios' part.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressGuard, PRIVATE_ORIGIN_OPT_IN } from '../../src/guards/address.js';
import { hostOf, refusedAddress, refusedName } from '../../src/net/address.js';
import { resolvingOnce, type Resolver } from '../../src/net/resolve.js';

const judge = (url: string, env: NodeJS.ProcessEnv = {}) => addressGuard.refuse(new URL(url), env);

describe('refusedAddress', () => {
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['10.1.2.3', 'private'],
    ['100.64.0.1', 'CGNAT'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.0.0.8', 'IETF'],
    ['192.0.2.1', 'documentation'],
    ['192.168.1.1', 'private'],
    ['198.18.0.1', 'benchmarking'],
    ['224.0.0.1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['::', 'outside the global unicast range'],
    ['::1', 'outside the global unicast range'],
    ['fe80::1', 'outside the global unicast range'],
    ['fc00::1', 'outside the global unicast range'],
    ['fd12:3456::1', 'outside the global unicast range'],
    ['ff02::1', 'outside the global unicast range'],
    ['::7f00:1', 'outside the global unicast range'],
    ['2001:db8::1', 'documentation'],
    ['2001::1', 'Teredo'],
    ['2002:7f00:1::1', '6to4'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['64:ff9b::a00:1', 'private'],
  ])('refuses %s (%s)', (address, label) => {
    expect(refusedAddress(address)).toContain(label);
  });

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'])('lets the public address %s through', (address) => {
    expect(refusedAddress(address)).toBeNull();
  });

  it('judges every IPv4-mapped address as the IPv4 address it carries', () => {
    fc.assert(
      fc.property(fc.ipV4(), (v4) => {
        expect(refusedAddress(`::ffff:${v4}`) === null).toBe(refusedAddress(v4) === null);
      }),
    );
  });

  it('refuses every address in 10.0.0.0/8, 127.0.0.0/8 and 169.254.0.0/16', () => {
    const octet = fc.integer({ min: 0, max: 255 });
    fc.assert(
      fc.property(fc.constantFrom(10, 127, 169), octet, octet, octet, (first, b, c, d) => {
        const address = first === 169 ? `169.254.${c}.${d}` : `${first}.${b}.${c}.${d}`;
        expect(refusedAddress(address)).not.toBeNull();
      }),
    );
  });
});

describe('refusedName', () => {
  it.each(['localhost', 'LOCALHOST.', 'metadata', 'metadata.google.internal', 'intranet', 'db.localhost', 'host.internal', 'printer.local', 'nas.lan', 'router.home', 'x.home.arpa', 'a.test', 'a..b'])(
    'refuses %s',
    (name) => {
      expect(refusedName(name)).not.toBeNull();
    },
  );

  it.each(['example.com', 'mcp.example.org.', 'localhost.example.com'])('leaves %s to be resolved', (name) => {
    expect(refusedName(name)).toBeNull();
  });

  it.each([
    ['', '"" is not a host name'],
    ['.', '"." is not a host name'],
    ['.example.com', '".example.com" is not a host name'],
    ['a..b', '"a..b" is not a host name'],
    ['LocalHost', '"LocalHost" is a local name'],
    ['intranet', '"intranet" is a single-label name, resolved by local search rules'],
    ['printer.local', '"printer.local" ends in .local, a local or reserved suffix'],
    // Compared in IDNA's ASCII form: compatibility and case spellings of a local name are that name.
    ['ＬＯＣＡＬＨＯＳＴ', '"ＬＯＣＡＬＨＯＳＴ" is a local name'],
    ['nas.ＬＡＮ.', '"nas.ＬＡＮ." ends in .lan, a local or reserved suffix'],
  ])('says why it refuses %j', (name, why) => {
    expect(refusedName(name)).toBe(why);
  });
});

describe('refusedAddress of what is no address', () => {
  it('says it is not an IP address', () => {
    expect(refusedAddress('mcp.example.com')).toBe('mcp.example.com is not an IP address');
    expect(refusedAddress('')).toBe(' is not an IP address');
  });
});

describe('hostOf', () => {
  // WHATWG parsing is what turns these spellings into the address that would be dialled (NET-5).
  it.each([
    ['http://2130706433/', '127.0.0.1'],
    ['http://0x7f.1/', '127.0.0.1'],
    ['http://0177.0.0.1/', '127.0.0.1'],
    ['http://127.1/', '127.0.0.1'],
    ['http://017700000001/', '127.0.0.1'],
    ['http://%31%32%37.0.0.1/', '127.0.0.1'],
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
    ['http://[0:0:0:0:0:0:0:1]/', '::1'],
  ])('reads %s as the address %s', (url, address) => {
    expect(hostOf(new URL(url))).toEqual({ kind: 'address', address });
  });

  it('reads anything else as a name to resolve, as WHATWG parsing wrote it', () => {
    expect(hostOf(new URL('http://MCP.Example.com:8443/mcp'))).toEqual({ kind: 'name', name: 'mcp.example.com' });
    expect(hostOf(new URL('http://1.2.3.example/'))).toEqual({ kind: 'name', name: '1.2.3.example' });
  });
});

describe('address-guard', () => {
  it.each(['ftp://8.8.8.8/', 'file:///etc/passwd', 'gopher://8.8.8.8/', 'ws://8.8.8.8/'])('refuses the scheme of %s', async (url) => {
    expect(await judge(url)).toContain('scheme');
  });

  it.each([
    'http://127.0.0.1:8080/mcp',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://0177.0.0.1/',
    'http://127.1/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::1]/',
    'http://0.0.0.0/',
    'http://169.254.169.254/latest/meta-data/',
    'https://10.0.0.5/',
    'http://localhost:8080/',
    'http://metadata/computeMetadata/v1/',
    'http://api.internal/',
  ])('refuses %s before anything is dialled', async (url) => {
    expect(await judge(url)).not.toBeNull();
  });

  it('lets a public address through', async () => {
    expect(await judge('https://8.8.8.8/mcp')).toBeNull();
  });

  it('lifts the range check for the opted-in origin only, and never the scheme check', async () => {
    const env = { [PRIVATE_ORIGIN_OPT_IN]: 'http://127.0.0.1:8080' };
    expect(await judge('http://127.0.0.1:8080/mcp', env)).toBeNull();
    expect(await judge('http://127.1:8080/mcp', env)).toBeNull();
    expect(await judge('http://127.0.0.1:8081/mcp', env)).not.toBeNull();
    expect(await judge('https://127.0.0.1:8080/mcp', env)).not.toBeNull();
    expect(await judge('http://169.254.169.254/', env)).not.toBeNull();
    expect(await judge('http://127.0.0.1:8080/mcp', { [PRIVATE_ORIGIN_OPT_IN]: 'not a url' })).not.toBeNull();
  });
});

describe('resolvingOnce', () => {
  it('asks the resolver once per name and gives every later question the first answer, a failure too', async () => {
    const asked: string[] = [];
    let turn = 0;
    const rebinding: Resolver = async (name) => {
      asked.push(name);
      if (name === 'gone.example.net') throw new Error('ENOTFOUND');
      turn += 1;
      return [{ address: turn === 1 ? '93.184.215.14' : '10.0.0.5', family: 4 }];
    };
    const resolve = resolvingOnce(rebinding);
    expect(await resolve('notes.example.net')).toEqual([{ address: '93.184.215.14', family: 4 }]);
    expect(await resolve('notes.example.net')).toEqual([{ address: '93.184.215.14', family: 4 }]);
    await expect(resolve('gone.example.net')).rejects.toThrow('ENOTFOUND');
    await expect(resolve('gone.example.net')).rejects.toThrow('ENOTFOUND');
    expect(asked).toEqual(['notes.example.net', 'gone.example.net']);
  });
});
