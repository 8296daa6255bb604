// The exact decimal value of a JSON number literal, written one way. Two literals get the same
// canonical text exactly when they denote the same real number, so `1.0`, `1` and `10e-1` agree
// while `9007199254740993` and `9007199254740992` stay apart (a float64 would merge them).

const LITERAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/**
 * Canonical text of a number literal. The layout follows ECMAScript's Number::toString applied to
 * the literal's own digits, so every value a float64 holds exactly in its shortest form reads as
 * JSON.stringify would write it; other values keep all their digits.
 */
export function canonicalNumber(literal: string): string {
  const match = LITERAL.exec(literal);
  if (match === null) throw new SyntaxError(`not a JSON number literal: ${literal}`);
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  const allDigits = whole + fraction;
  const leading = allDigits.length - allDigits.replace(/^0+/, '').length;
  const digits = allDigits.slice(leading).replace(/0+$/, '');
  if (digits === '') return '0'; // every zero, including -0, is the one value zero
  // value = 0.<digits> × 10^point, as in ECMAScript's Number::toString (k digits, exponent n).
  const point = BigInt(exponent) + BigInt(whole.length - leading);
  const k = BigInt(digits.length);
  const negative = sign === '-' ? '-' : '';
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
