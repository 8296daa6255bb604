// The enclosure's DNS, without a socket: what it reads of a query, and how it takes a name's
// addresses in turn, one per A query, so DNS rebinding is staged by count and never by time.

import { describe, expect, it } from 'vitest';
import { parseQuery, RCODE, TurnTakingZone } from '../../harness/observe/dns.js';

const A = 1;
const AAAA = 28;

/** A query as glibc's stub resolver writes it: one question, recursion desired. */
function query(name: string, type: number, id = 0x1234): Buffer {
  const labels = name.split('.').map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label, 'latin1')]));
  const header = Buffer.from([id >> 8, id & 0xff, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0]);
  return Buffer.concat([header, ...labels, Buffer.from([0, type >> 8, type & 0xff, 0, 1])]);
}

/** The parts of a response the resolver acts on. */
function decode(packet: Buffer | null): { id: number; qr: boolean; rd: boolean; rcode: number; answers: string[] } {
  if (packet === null) throw new Error('no response');
  const flags = packet.readUInt16BE(2);
  const count = packet.readUInt16BE(6);
  // Each answer here is a 16-byte A record at the end; its address is its last four bytes.
  const answers = Array.from({ length: count }, (_, index) => [...packet.subarray(packet.length - 16 * (count - index) + 12, packet.length - 16 * (count - index) + 16)].join('.'));
  return { id: packet.readUInt16BE(0), qr: (flags & 0x8000) !== 0, rd: (flags & 0x0100) !== 0, rcode: flags & 0xf, answers };
}

describe('parseQuery', () => {
  it('reads the one question of a standard query, its name in lower case', () => {
    const packet = query('Notes.Rebind-Gauntlet.NET', A, 0xbeef);
    expect(parseQuery(packet)).toMatchObject({ id: 0xbeef, name: 'notes.rebind-gauntlet.net', type: A, class: 1 });
    expect(parseQuery(packet)?.section).toEqual(packet.subarray(12));
  });

  it('refuses what a stub resolver would not send', () => {
    const response = query('a.net', A);
    response.writeUInt8(response.readUInt8(2) | 0x80, 2);
    expect(parseQuery(response)).toBeNull();
    const twoQuestions = query('a.net', A);
    twoQuestions[5] = 2;
    expect(parseQuery(twoQuestions)).toBeNull();
    const pointer = query('a.net', A);
    pointer[12] = 0xc0;
    expect(parseQuery(pointer)).toBeNull();
    expect(parseQuery(query('a.net', A).subarray(0, 16))).toBeNull();
    expect(parseQuery(Buffer.alloc(5))).toBeNull();
  });
});

describe('TurnTakingZone', () => {
  const name = 'notes.rebind-gauntlet.net';

  it('answers the first A query with the first address and every later one with the last', () => {
    const zone = new TurnTakingZone({ [name]: ['93.184.215.14', '10.0.0.5'] });
    const answers = [1, 2, 3].map(() => decode(zone.answer(query(name, A))));
    expect(answers.map((answer) => answer.answers)).toEqual([['93.184.215.14'], ['10.0.0.5'], ['10.0.0.5']]);
    expect(answers[0]).toMatchObject({ id: 0x1234, qr: true, rd: true, rcode: RCODE.noError });
  });

  it('counts only A queries: the AAAA query beside each has no records and takes no turn', () => {
    const zone = new TurnTakingZone({ [name]: ['93.184.215.14', '10.0.0.5'] });
    expect(decode(zone.answer(query(name, AAAA)))).toMatchObject({ rcode: RCODE.noError, answers: [] });
    expect(decode(zone.answer(query(name, A))).answers).toEqual(['93.184.215.14']);
    expect(decode(zone.answer(query(name, AAAA)))).toMatchObject({ rcode: RCODE.noError, answers: [] });
    expect(decode(zone.answer(query(name, A))).answers).toEqual(['10.0.0.5']);
  });

  it('starts every name from its first address again on restart', () => {
    const zone = new TurnTakingZone({ [name]: ['93.184.215.14', '10.0.0.5'], 'other.net': ['93.184.215.15'] });
    zone.answer(query(name, A));
    zone.answer(query(name, A));
    zone.restart();
    expect(decode(zone.answer(query(name, A))).answers).toEqual(['93.184.215.14']);
    expect(decode(zone.answer(query('other.net', A))).answers).toEqual(['93.184.215.15']);
  });

  it('says a name it lacks does not exist, and drops what is not a query', () => {
    const zone = new TurnTakingZone({ [name]: ['93.184.215.14'] });
    expect(decode(zone.answer(query('elsewhere.net', A)))).toMatchObject({ rcode: RCODE.nxDomain, answers: [] });
    expect(zone.answer(Buffer.from('not dns'))).toBeNull();
  });

  it('serves IPv4 addresses only', () => {
    expect(() => new TurnTakingZone({ [name]: ['fd00::5'] })).toThrow(/IPv4/);
    expect(() => new TurnTakingZone({ [name]: [] })).toThrow(/IPv4/);
  });
});
