// The values the operator placed in the server's environment (a token for its backend, an API
// key) are lent to the server, never meant for the agent: each occurrence of one in what the
// server answers, as written or encoded, is replaced by a marker naming the variable, so the rest
// of the answer stays.

import { mapStrings } from '../json/members.js';
import { normalise } from '../inspect/normalise.js';
import type { JsonValue } from '../types.js';

/**
 * Values shorter than this are left alone: they cannot be told apart from ordinary words (a log
 * level, a region, a port), and no credential worth the name is that short.
 */
export const MIN_REDACTED_CHARS = 8;

export type Redact = (text: string) => string;

/** One spelling of one value (as written, or normalised) and the marker that replaces it. */
interface Secret {
  readonly marker: string;
  readonly form: string;
}

/**
 * Replaces every occurrence of each value, as written and as inspection normalises it, with
 * `[redacted: NAME]`, and so each of those forms percent-encoded, hex-encoded or inside base64:
 * a server that quotes its token encoded (in a Basic Authorization header, say) leaks it as
 * surely as one that quotes it plainly. The longest values go first, so a value inside another
 * leaves no piece of it.
 */
export function redactor(env: ReadonlyMap<string, string>): Redact | undefined {
  // A session's environment is fixed, and every result and error asks for its redactor: built once.
  if (built.has(env)) return built.get(env);
  const secrets = [...env]
    .filter(([, value]) => value.length >= MIN_REDACTED_CHARS)
    .flatMap(([name, value]) =>
      [...new Set([value, normalise(value)])]
        // A value whose normalised form is short (mostly invisible characters) would otherwise
        // have every ordinary occurrence of that short text redacted.
        .filter((form) => form.length >= MIN_REDACTED_CHARS)
        .map((form): Secret => ({ marker: `[redacted: ${name}]`, form })),
    )
    .sort((a, b) => b.form.length - a.form.length);
  const redact = secrets.length === 0 ? undefined : compile(secrets);
  built.set(env, redact);
  return redact;
}

const built = new WeakMap<ReadonlyMap<string, string>, Redact | undefined>();

/**
 * A character of the base64 alphabets, standard and URL-safe alike (as inspection's own base64
 * runs): the characters around a match need not say which alphabet the server used.
 */
const BASE64_CHAR = '[A-Za-z0-9+/_-]';

/**
 * The redactor for `secrets`, longest first. Each secret is one pattern for its percent-encoded
 * forms (as written is the one with no escapes) and its hex form; the base64 forms are found by
 * one scan of the text's base64 runs for all secrets, since a token inside base64 has no edges of
 * its own to match.
 */
function compile(secrets: readonly Secret[]): Redact {
  const spelled = secrets.map(({ marker, form }) => ({ marker, pattern: new RegExp(`${percentEncoded(form)}|${anyCase(utf8(form).toString('hex'))}`, 'g') }));
  const inBase64 = secrets.map(({ marker, form }) => ({ marker, pieces: base64Pieces(form) }));
  // A run shorter than every piece cannot hold one: the scan skips ordinary words.
  const shortest = Math.min(...inBase64.flatMap(({ pieces }) => pieces.map((piece) => piece.length)));
  // The length is a lookahead before a plain `+`, which V8 runs over a run of megabytes a hundred
  // times faster than `{n,}`.
  const runs = new RegExp(`(?=${BASE64_CHAR}{${shortest}})${BASE64_CHAR}+={0,2}`, 'g');
  // The whole run is replaced, not just the piece: the characters at the piece's edges each carry
  // a few of the token's bits, and the rest of the run is the same encoded value (the user name
  // of a Basic credential), which decodes to nothing useful once cut. Replacing a superset of the
  // piece is sound; what it costs is text glued to the run with no separator, which goes with it.
  const inRun = (run: string): string => inBase64.find(({ pieces }) => pieces.some((piece) => run.includes(piece)))?.marker ?? run;
  const redactAsWritten = (text: string): string => spelled.reduce((out, { marker, pattern }) => out.replace(pattern, () => marker), text).replace(runs, inRun);
  // Inspection forwards the server's characters unfolded (inspect/normalise.ts), so a value spelled
  // in compatibility characters (fullwidth, say) is found in the text's normalised form; only then
  // is the text forwarded in that form, with the value replaced.
  return (text) => {
    const redacted = redactAsWritten(text);
    const folded = normalise(redacted);
    if (folded === redacted) return redacted;
    const foldedRedacted = redactAsWritten(folded);
    return foldedRedacted === folded ? redacted : foldedRedacted;
  };
}

function utf8(text: string): Buffer {
  return Buffer.from(text, 'utf8');
}

/** Hex digits as a pattern that matches them in either case, per digit. */
function anyCase(hex: string): string {
  return hex.replace(/[a-f]/g, (digit) => `[${digit}${digit.toUpperCase()}]`);
}

/**
 * A pattern for `form` with each character as written or as the %XX escapes of its UTF-8 bytes:
 * encodeURIComponent's form, every byte escaped, and any encoder's choice in between.
 */
function percentEncoded(form: string): string {
  return [...form]
    .map((char) => `(?:${char.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&')}|${anyCase(utf8(char).toString('hex').replace(/../g, '%$&'))})`)
    .join('');
}

/**
 * The characters of the base64 (and base64url) encoding of `form` that its bytes alone decide,
 * for each of the three alignments it can have inside longer encoded bytes: `form` preceded by
 * k bytes, for k of 0 to 2, encoded; character i carries bits 6i to 6i+6, so those from
 * ceil(8k/6) up to floor(8(k+n)/6) lie within the n bytes of `form`, whatever surrounds it.
 */
function base64Pieces(form: string): string[] {
  const bytes = utf8(form);
  const pieces = [0, 1, 2].flatMap((k) => {
    const aligned = Buffer.concat([Buffer.alloc(k), bytes]);
    const [from, to] = [Math.ceil((8 * k) / 6), Math.floor((8 * aligned.length) / 6)];
    return (['base64', 'base64url'] as const).map((alphabet) => aligned.toString(alphabet).slice(from, to));
  });
  return [...new Set(pieces)];
}

/** Every string and key of a value, redacted. */
export function redactValue(value: JsonValue, redact: Redact): JsonValue {
  return mapStrings(value, redact, redact);
}
