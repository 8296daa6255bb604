// Detection on normalised text and on the decoded forms a payload hides in (docs/result-path.md):
// secrets, which must not leave, and injection patterns, which a model must not read as orders.

/**
 * `hidden`: invisible or formatting characters in text that cannot be rewritten without changing
 * what it means (a key, a name, a schema's `pattern` or `enum` value): found by the caller, which
 * knows which text that is (inspect/inspect.ts), never by a pattern here.
 */
export type FindingKind = 'secret' | 'injection' | 'hidden';

export interface Finding {
  readonly kind: FindingKind;
  /** Names the pattern, never quotes the match: the match may be the secret. */
  readonly pattern: string;
  /** `text`, or the encoding the match was found under. */
  readonly form: string;
}

/** Each pattern with the name a finding gives it. */
type Patterns = readonly (readonly [string, RegExp])[];

/** A list of patterns, and the same as one alternation for each set of flags among them. */
interface PatternList {
  readonly named: Patterns;
  readonly anyOf: readonly RegExp[];
}

/**
 * A text matches one of the alternations exactly when it matches one of the patterns, so a single
 * scan clears the common text that matches none, which each pattern would scan again. Only a
 * text that matches is then tried pattern by pattern, to name what matched.
 */
function patternList(named: Patterns): PatternList {
  const flagSets = [...new Set(named.map(([, pattern]) => pattern.flags))];
  const anyOf = flagSets.map((flags) => {
    const sources = named.filter(([, pattern]) => pattern.flags === flags).map(([, pattern]) => `(?:${pattern.source})`);
    return new RegExp(sources.join('|'), flags);
  });
  return { named, anyOf };
}

const SECRETS = patternList([
  ['an AWS access key id', /AKIA[0-9A-Z]{16}/],
  ['a private key block', /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/],
  ['a GitHub token', /gh[pousr]_[A-Za-z0-9]{36}/],
  ['a Slack token', /xox[baprs]-[A-Za-z0-9-]{10,}/],
  ['an OpenAI-style key', /(?<![A-Za-z0-9])sk-(?:proj-)?[A-Za-z0-9_-]{20,}/],
  ['a JWT', /eyJ[A-Za-z0-9_-]+\.eyJ[A-Za-z0-9_-]+\./],
  ['the planted canary', /GAUNTLET-CANARY-[0-9a-f]{16}/i],
]);

const INJECTIONS = patternList([
  ['an instruction to ignore earlier instructions', /\b(?:ignore|disregard|forget)\s+(?:(?:all|any|the|your|of|previous|prior|earlier|above)\s+)+(?:instructions|directions|rules)\b/i],
  ['a fake system or administrator override', /\b(?:system|admin(?:istrator)?)\s+override\b/i],
  ['an <IMPORTANT>-style hidden directive', /<\s*\/?\s*important\s*>/i],
  ['a demand for a credential file', /~\/\.ssh\/|~\/\.aws\/credentials|\bid_(?:rsa|ed25519|ecdsa)\b/i],
  ['an instruction to hide actions from the user', /\b(?:do\s+not|don['’]?t|never)\s+(?:tell|inform|mention\s+(?:this\s+)?to)\s+the\s+user\b/i],
]);

const BASE64_RUN = /[A-Za-z0-9+/_-]{24,}={0,2}/g;
const HEX_RUN = /(?:[0-9a-fA-F]{2}){16,}/g;
const URL_ESCAPE = /%[0-9a-fA-F]{2}/;

/** Every finding in one normalised text and its decoded forms; empty when there is none. */
export function detect(text: string, kinds: readonly FindingKind[] = ['secret', 'injection']): Finding[] {
  const findings: Finding[] = [];
  for (const [form, decoded] of forms(text)) {
    if (kinds.includes('secret')) findings.push(...matches(decoded, SECRETS, 'secret', form));
    if (kinds.includes('injection')) findings.push(...matches(decoded, INJECTIONS, 'injection', form));
  }
  return findings;
}

function matches(text: string, { named, anyOf }: PatternList, kind: FindingKind, form: string): Finding[] {
  if (!anyOf.some((any) => any.test(text))) return [];
  return named.filter(([, pattern]) => pattern.test(text)).map(([pattern]) => ({ kind, pattern, form }));
}

/** The text itself, then each decoding of a run in it that could hide a payload. */
function* forms(text: string): Generator<readonly [string, string]> {
  yield ['text', text];
  for (const [run] of text.matchAll(BASE64_RUN)) {
    yield ['base64', Buffer.from(run.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1')];
  }
  for (const [run] of text.matchAll(HEX_RUN)) yield ['hex', Buffer.from(run, 'hex').toString('latin1')];
  if (URL_ESCAPE.test(text)) yield ['url-encoding', percentDecoded(text)];
}

/** %XX sequences as the bytes they name; malformed ones stay as written. */
function percentDecoded(text: string): string {
  return text.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export function describeFindings(findings: readonly Finding[]): string {
  return [...new Set(findings.map((f) => (f.form === 'text' ? f.pattern : `${f.pattern} (${f.form}-encoded)`)))].join(', ');
}
