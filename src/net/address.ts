// Which addresses and host names a server URL may name (docs/network.md). A broker dials from
// inside the operator's network, so a URL naming that network's own hosts (loopback, private
// ranges, the cloud metadata endpoint, local names) would carry the operator's privileges there:
// server-side request forgery. Only public unicast addresses and public names pass.

import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { hostKey } from '../normal/host.js';

/** A named range, so a refusal can say what the address is. */
interface Range {
  readonly network: string;
  readonly prefix: number;
  readonly label: string;
}

// IANA's special-purpose registries (RFC 6890 and its updates), every entry that is not
// globally reachable, plus multicast and the reserved class E.
const IPV4_REFUSED: readonly Range[] = [
  { network: '0.0.0.0', prefix: 8, label: 'unspecified ("this network")' },
  { network: '10.0.0.0', prefix: 8, label: 'private' },
  { network: '100.64.0.0', prefix: 10, label: 'shared address space (CGNAT)' },
  { network: '127.0.0.0', prefix: 8, label: 'loopback' },
  { network: '169.254.0.0', prefix: 16, label: 'link-local (the cloud metadata endpoint among them)' },
  { network: '172.16.0.0', prefix: 12, label: 'private' },
  { network: '192.0.0.0', prefix: 24, label: 'IETF protocol assignments' },
  { network: '192.0.2.0', prefix: 24, label: 'documentation' },
  { network: '192.88.99.0', prefix: 24, label: '6to4 relay anycast' },
  { network: '192.168.0.0', prefix: 16, label: 'private' },
  { network: '198.18.0.0', prefix: 15, label: 'benchmarking' },
  { network: '198.51.100.0', prefix: 24, label: 'documentation' },
  { network: '203.0.113.0', prefix: 24, label: 'documentation' },
  { network: '224.0.0.0', prefix: 4, label: 'multicast' },
  { network: '240.0.0.0', prefix: 4, label: 'reserved (broadcast included)' },
];

// Inside the global unicast space 2000::/3, the blocks that are not globally reachable. Anything
// outside 2000::/3 is refused as a whole (loopback, unspecified, link-local, unique-local,
// multicast, the deprecated site-local and IPv4-compatible forms); IPv4-mapped and NAT64
// addresses are judged by the IPv4 address they carry before this list is consulted.
const IPV6_REFUSED: readonly Range[] = [
  { network: '2001::', prefix: 23, label: 'IETF protocol assignments (Teredo included)' },
  { network: '2001:db8::', prefix: 32, label: 'documentation' },
  { network: '2002::', prefix: 16, label: '6to4 (carries an IPv4 address the guard cannot vouch for)' },
  { network: '3fff::', prefix: 20, label: 'documentation' },
];

const GLOBAL_UNICAST_V6: Range = { network: '2000::', prefix: 3, label: 'global unicast' };

function blockList(ranges: readonly Range[], family: 'ipv4' | 'ipv6'): Array<{ range: Range; list: BlockList }> {
  return ranges.map((range) => {
    const list = new BlockList();
    list.addSubnet(range.network, range.prefix, family);
    return { range, list };
  });
}

const V4 = blockList(IPV4_REFUSED, 'ipv4');
const V6 = blockList(IPV6_REFUSED, 'ipv6');
const [GLOBAL_V6] = blockList([GLOBAL_UNICAST_V6], 'ipv6');

/** The eight 16-bit groups of an IPv6 address in any textual form Node accepts. */
function ipv6Groups(text: string): number[] {
  let address = text.toLowerCase().split('%')[0]!;
  // A trailing dotted quad (::ffff:127.0.0.1) is the last two groups written another way.
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    address = `${address.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = address.split('::');
  const parse = (part: string): number[] => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/** The IPv4 address an IPv4-mapped (::ffff:0:0/96) or NAT64 (64:ff9b::/96) address stands for. */
function embeddedIPv4(text: string): string | undefined {
  const groups = ipv6Groups(text);
  const prefix = groups.slice(0, 6);
  const mapped = prefix.every((group, i) => group === (i === 5 ? 0xffff : 0));
  const nat64 = prefix.every((group, i) => group === [0x64, 0xff9b, 0, 0, 0, 0][i]);
  if (!mapped && !nat64) return undefined;
  const [high, low] = [groups[6]!, groups[7]!];
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/**
 * Why an IP address may not be dialled, or null for a public unicast address. An address written
 * as IPv6 but standing for an IPv4 one is judged as that IPv4 address (NET-5).
 */
export function refusedAddress(address: string): string | null {
  if (isIPv4(address)) {
    const hit = V4.find(({ list }) => list.check(address, 'ipv4'));
    return hit === undefined ? null : `${address} is ${hit.range.label} (${hit.range.network}/${hit.range.prefix})`;
  }
  if (!isIPv6(address)) return `${address} is not an IP address`;
  const inner = embeddedIPv4(address);
  if (inner !== undefined) {
    const reason = refusedAddress(inner);
    return reason === null ? null : `${address} is an IPv4 address written as IPv6: ${reason}`;
  }
  if (!GLOBAL_V6!.list.check(address, 'ipv6')) return `${address} is outside the global unicast range 2000::/3`;
  const hit = V6.find(({ list }) => list.check(address, 'ipv6'));
  return hit === undefined ? null : `${address} is ${hit.range.label} (${hit.range.network}/${hit.range.prefix})`;
}

/** Names that only mean something inside one machine or one site (RFC 6761, RFC 6762, ICANN's .internal). */
const LOCAL_NAMES = new Set(['localhost', 'metadata', 'metadata.google.internal']);
const LOCAL_SUFFIXES = ['localhost', 'local', 'internal', 'localdomain', 'lan', 'home', 'intranet', 'corp', 'private', 'arpa', 'test', 'invalid', 'example'];

/** Why a host name may not be dialled without resolving it, or null when it must be resolved. */
export function refusedName(hostname: string): string | null {
  // Compared in IDNA's ASCII form (src/normal/host.ts), as WHATWG parsing gives a URL's host: one
  // trailing dot makes a name fully qualified without changing what it names, and `ＬＯＣＡＬＨＯＳＴ`
  // or `Localhost` is localhost. A name IDNA refuses is judged in lower case, as written.
  const name = hostKey(hostname) ?? hostname.toLowerCase().replace(/\.$/, '');
  if (name === '' || name.startsWith('.') || name.includes('..')) return `"${hostname}" is not a host name`;
  if (LOCAL_NAMES.has(name)) return `"${hostname}" is a local name`;
  if (!name.includes('.')) return `"${hostname}" is a single-label name, resolved by local search rules`;
  const suffix = LOCAL_SUFFIXES.find((local) => name.endsWith(`.${local}`));
  return suffix === undefined ? null : `"${hostname}" ends in .${suffix}, a local or reserved suffix`;
}

/** The schemes a server may be reached by; anything else is refused before it is looked at further. */
export const SERVER_SCHEMES: readonly string[] = ['http:', 'https:'];

/** What a URL's host is once WHATWG parsing has normalised it: an IP address to judge, or a name. */
export type Host = { readonly kind: 'address'; readonly address: string } | { readonly kind: 'name'; readonly name: string };

/**
 * WHATWG parsing already turns every IPv4 spelling (2130706433, 0x7f.1, 0177.0.0.1, 127.1) into
 * dotted decimal, and brackets IPv6; what it yields is exactly what would be dialled.
 */
export function hostOf(url: URL): Host {
  const { hostname } = url;
  if (hostname.startsWith('[') && hostname.endsWith(']')) return { kind: 'address', address: hostname.slice(1, -1) };
  if (isIPv4(hostname)) return { kind: 'address', address: hostname };
  return { kind: 'name', name: hostname };
}
