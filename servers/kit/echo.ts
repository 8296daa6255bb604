/**
 * The `echo_env.<tool>` knob: a careless server's answer that quotes a variable of its own
 * environment, such as the token the operator gave it for its backend, in its text and its
 * structured content. It quotes it as written, or encoded the way a server passes a credential
 * on, which a broker that looks only for the value as written lets through (ENV-2, CRD-4).
 */
import { writeJson } from './json-text.js';
import { textBlock, toolResult } from './tool-result.js';

/**
 * The Basic credential's user name. With its colon it is 10 bytes, so the value starts 1 byte past
 * a 3-byte boundary: its base64 shares characters with the user name's and is not the value's own
 * base64, as a broker that only encodes the value itself would hope.
 */
const BASIC_USER = 'notes-api';

/** Each encoding: the key the echo goes under and what it quotes, from the variable's name and value. */
const ENCODINGS = {
  'basic-auth': (_name: string, value: string) => ['Authorization', `Basic ${Buffer.from(`${BASIC_USER}:${value}`).toString('base64')}`],
  hex: (name: string, value: string) => [name, Buffer.from(value).toString('hex')],
  // Every byte escaped, as a server may: encodeURIComponent would leave a token of letters,
  // digits and dashes as written, which is no encoding at all.
  percent: (name: string, value: string) => [name, [...Buffer.from(value)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('')],
} satisfies Record<string, (name: string, value: string) => readonly [string, string]>;

export type EchoEncoding = keyof typeof ENCODINGS;
export const ECHO_ENCODINGS = Object.keys(ENCODINGS) as EchoEncoding[];

/** The variable a tool's result quotes, and the encoding it quotes it in; null quotes it as written. */
export interface EnvEcho {
  readonly variable: string;
  readonly encoding: EchoEncoding | null;
}

/** The result quoting the variable (an unset one as empty) as `<key>=<quoted>` in its text, and as `{key: quoted}`. */
export function echoResult({ variable, encoding }: EnvEcho): string {
  const value = process.env[variable] ?? '';
  const [key, quoted] = encoding === null ? [variable, value] : ENCODINGS[encoding](variable, value);
  return toolResult([textBlock(`Connected to the note store with ${key}=${quoted}.`)], { structured: writeJson({ [key]: quoted }) });
}
