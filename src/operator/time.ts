// Instants the operator writes (grant and approval expiries) and the broker's clock. An expiry is
// compared with the clock in milliseconds since the epoch; a fraction of a millisecond is kept,
// so an expiry just after now is not rounded down onto now and called expired.

/** The broker's clock, in milliseconds since the epoch; injectable so tests can pin "now". */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/** An RFC 3339 date-time as milliseconds since the epoch, or undefined when it is not one. */
export function parseRfc3339(text: string): number | undefined {
  const match = RFC3339.exec(text);
  if (match === null) return undefined;
  const [, y, mo, d, h, mi, s, fraction = '', sign, oh = '0', om = '0'] = match;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number) as [number, number, number, number, number, number];
  const offsetHours = Number(oh);
  const offsetMinutes = Number(om);
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  // Date.UTC would roll an out-of-range field into the next one instead of refusing it. A leap
  // second (60) is allowed, as RFC 3339 allows it, and reads as the next minute's start.
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth || hour > 23 || minute > 59 || second > 60) return undefined;
  if (offsetHours > 23 || offsetMinutes > 59) return undefined;
  const offsetMs = (sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day); // setUTCFullYear keeps years 0-99 as written
  utc.setUTCHours(hour, minute, second, 0);
  return utc.getTime() - offsetMs + (fraction === '' ? 0 : Number(`0${fraction}`) * 1000);
}

/** Whether an expiry is still ahead of `now`: one at or before now has expired. */
export function isLive(expiresAt: number, now: number): boolean {
  return expiresAt > now;
}
