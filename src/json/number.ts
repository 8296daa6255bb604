// The exact decimal value of a JSON number literal, written one way. Two literals get the same
// canonical text exactly when they denote the same real number, so `1.0`, `1` and `10e-1` agree
// while `9007199254740993` and `9007199254740992` stay apart (a float64 would merge them).

const LITERAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** A literal's value as ±0.<digits> × 10^point: digits without leading or trailing zeros, '' for zero. */
interface Decimal {
  readonly negative: boolean;
  readonly digits: string;
  readonly point: bigint;
}

function decimal(literal: string): Decimal {
  const match = LITERAL.exec(literal);
  if (match === null) throw new SyntaxError(`not a JSON number literal: ${literal}`);
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  const allDigits = whole + fraction;
  const leading = allDigits.length - allDigits.replace(/^0+/, '').length;
  const digits = allDigits.slice(leading).replace(/0+$/, '');
  // As in ECMAScript's Number::toString (k digits, exponent n). A zero's sign is never read: -0 is zero.
  return { negative: sign === '-', digits, point: BigInt(exponent) + BigInt(whole.length - leading) };
}

/**
 * Canonical text of a number literal. The layout follows ECMAScript's Number::toString applied to
 * the literal's own digits, so every value a float64 holds exactly in its shortest form reads as
 * JSON.stringify would write it; other values keep all their digits.
 */
export function canonicalNumber(literal: string): string {
  const { negative: minus, digits, point } = decimal(literal);
  if (digits === '') return '0';
  const k = BigInt(digits.length);
  const negative = minus ? '-' : '';
  if (k <= point && point <= 21n) return negative + digits + '0'.repeat(Number(point - k));
  if (0n < point && point <= 21n) {
    const p = Number(point);
    return `${negative}${digits.slice(0, p)}.${digits.slice(p)}`;
  }
  if (-6n < point && point <= 0n) return `${negative}0.${'0'.repeat(Number(-point))}${digits}`;
  const e = point - 1n;
  const mantissa = digits.length === 1 ? digits : `${digits[0]}.${digits.slice(1)}`;
  return `${negative}${mantissa}e${e < 0n ? '-' : '+'}${e < 0n ? -e : e}`;
}

/**
 * Whether a float64 holds the literal's value exactly. A peer that JSON.parses what the broker
 * forwards reads `Number(literal)`; when that differs from the literal, the broker and the server
 * would judge two different values.
 */
export function heldExactlyByFloat64(literal: string): boolean {
  const value = Number(literal);
  return Number.isFinite(value) && canonicalNumber(String(value)) === canonicalNumber(literal);
}

/**
 * The order of two number literals by their exact values: -1, 0 or 1. Number(a) - Number(b) would
 * call 9007199254740993 and 9007199254740992 equal, and a server chooses the numbers compared.
 */
export function compareNumbers(a: string, b: string): -1 | 0 | 1 {
  const x = decimal(a);
  const y = decimal(b);
  const sign = (d: Decimal) => (d.digits === '' ? 0 : d.negative ? -1 : 1);
  if (sign(x) !== sign(y)) return sign(x) < sign(y) ? -1 : 1;
  if (sign(x) === 0) return 0;
  // Same sign, both non-zero: the larger point is the larger magnitude (no leading zeros); at the
  // same point the digits decide as text, since neither has trailing zeros (a prefix is less).
  const magnitude = x.point !== y.point ? (x.point > y.point ? 1 : -1) : x.digits === y.digits ? 0 : x.digits > y.digits ? 1 : -1;
  return x.negative && magnitude !== 0 ? (-magnitude as -1 | 1) : magnitude;
}
