/**
 * The DNS the network enclosure answers with (docs/network.md): just enough of RFC 1035 to serve
 * a stub resolver (glibc's getaddrinfo) the names a scenario gives, each by a list of IPv4
 * addresses taken in turn, one per A query. It is how DNS rebinding is staged deterministically:
 * the answer depends on how many A queries came before, never on time. The process that serves it
 * is dns-responder.ts; this module holds the wire format and the counting, so both can be tested
 * without a socket.
 */
import { isIPv4 } from 'node:net';

const TYPE_A = 1;
const CLASS_IN = 1;
const HEADER_BYTES = 12;
/** The header's QR bit: set in a response, so a query carrying it is not a query. */
const QR = 0x8000;
/** Opcode (4 bits) and RD, copied from the query into the response. */
const OPCODE_MASK = 0x7800;
const RD = 0x0100;
const AA = 0x0400;

export const RCODE = { noError: 0, nxDomain: 3 } as const;

/** One question, as a query asks it: the name in lower case, without its trailing dot. */
export interface Question {
  id: number;
  flags: number;
  name: string;
  type: number;
  class: number;
  /** The question section's bytes as sent, echoed in the answer. */
  section: Buffer;
}

/** The question of a standard query, or null for anything a stub resolver would not send. */
export function parseQuery(packet: Buffer): Question | null {
  if (packet.length < HEADER_BYTES) return null;
  const flags = packet.readUInt16BE(2);
  if ((flags & QR) !== 0 || (flags & OPCODE_MASK) !== 0 || packet.readUInt16BE(4) !== 1) return null;
  const labels: string[] = [];
  let at = HEADER_BYTES;
  for (;;) {
    const length = packet[at];
    // A query's name is written out whole: a compression pointer (top bits set) has nothing to point to.
    if (length === undefined || length > 63) return null;
    at += 1;
    if (length === 0) break;
    if (at + length > packet.length) return null;
    labels.push(packet.toString('latin1', at, at + length).toLowerCase());
    at += length;
  }
  if (at + 4 > packet.length) return null;
  return {
    id: packet.readUInt16BE(0),
    flags,
    name: labels.join('.'),
    type: packet.readUInt16BE(at),
    class: packet.readUInt16BE(at + 2),
    section: packet.subarray(HEADER_BYTES, at + 4),
  };
}

/** A response to `question`: `rcode`, and one A record per address (TTL 0: never cached). */
export function response(question: Question, rcode: number, addresses: readonly string[] = []): Buffer {
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt16BE(question.id, 0);
  header.writeUInt16BE(QR | AA | (question.flags & (OPCODE_MASK | RD)) | rcode, 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(addresses.length, 6);
  const records = addresses.map((address) => {
    const record = Buffer.alloc(16);
    // The owner name is a pointer to the question's, which starts right after the header.
    record.writeUInt16BE(0xc000 | HEADER_BYTES, 0);
    record.writeUInt16BE(TYPE_A, 2);
    record.writeUInt16BE(CLASS_IN, 4);
    record.writeUInt32BE(0, 6);
    record.writeUInt16BE(4, 10);
    address.split('.').forEach((octet, index) => record.writeUInt8(Number(octet), 12 + index));
    return record;
  });
  return Buffer.concat([header, question.section, ...records]);
}

/**
 * The names the enclosure serves, each with its addresses in turn: the nth A query for a name
 * since the last restart is answered with the nth address, and every later one with the last.
 */
export class TurnTakingZone {
  private readonly asked = new Map<string, number>();
  private readonly names: ReadonlyMap<string, readonly string[]>;

  constructor(names: Record<string, readonly string[]>) {
    for (const [name, addresses] of Object.entries(names)) {
      if (addresses.length === 0 || !addresses.every((address) => isIPv4(address))) throw new Error(`${name}: the enclosure's DNS answers with IPv4 addresses only`);
    }
    this.names = new Map(Object.entries(names).map(([name, addresses]) => [name.toLowerCase(), addresses]));
  }

  /** Every name's turns start again from its first address. */
  restart(): void {
    this.asked.clear();
  }

  /**
   * The response to a query packet, or null for one that is not a standard query (dropped, as a
   * resolver would drop noise). A name the zone lacks does not exist; another type for a name it
   * has (AAAA, which getaddrinfo asks beside A) exists with no records, so only A queries count.
   */
  answer(packet: Buffer): Buffer | null {
    const question = parseQuery(packet);
    if (question === null) return null;
    const addresses = this.names.get(question.name);
    if (addresses === undefined) return response(question, RCODE.nxDomain);
    if (question.type !== TYPE_A || question.class !== CLASS_IN) return response(question, RCODE.noError);
    const turn = this.asked.get(question.name) ?? 0;
    this.asked.set(question.name, turn + 1);
    return response(question, RCODE.noError, [addresses[Math.min(turn, addresses.length - 1)]!]);
  }
}
