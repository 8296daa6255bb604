// How a string is written inside JSON text. Both writers share it so that a forwarded string and
// a hashed string are escaped the same way: only what JSON requires, as JSON.stringify and
// RFC 8785 do, so one value has one spelling.

const SHORT: Readonly<Record<number, string>> = {
  0x08: '\\b',
  0x09: '\\t',
  0x0a: '\\n',
  0x0c: '\\f',
  0x0d: '\\r',
  0x22: '\\"',
  0x5c: '\\\\',
};

const NEEDS_ESCAPE = /["\\\u0000-\u001f]/;

export function quoteString(value: string): string {
  if (!NEEDS_ESCAPE.test(value)) return `"${value}"`;
  let out = '"';
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    const short = SHORT[c];
    if (short !== undefined) out += short;
    else if (c < 0x20) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += value[i];
  }
  return out + '"';
}
