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
  // Meant to outlive the message it came in: a sampling request's system prompt read as the
  // model's own standing orders.
  ['an instruction meant to persist into later turns', /\bfrom\s+now\s+on\s*,?\s+(?:you\s+(?:must|will|should)|always|never|in\s+every)\b|\b(?:in|for|on)\s+(?:every|all|each)\s+(?:later|future|subsequent|following)\s+(?:turns?|repl(?:y|ies)|responses?|answers?|messages?|conversations?)\b/i],
  ['an instruction to hide actions from the user', /\b(?:do\s+not|don['’]?t|never)\s+(?:tell|inform|mention\s+(?:this\s+)?to)\s+the\s+user\b/i],
  // Preference manipulation: a server may praise its tool, but not turn the model from every
  // other tool, whose servers it cannot speak for. Praise alone ("recommended", "fast") passes.
  ['an instruction to use this tool instead of any other', /\b(?:instead\s+of|rather\s+than|in\s+place\s+of)\s+(?:any|all|every)\s+other\b/i],
  ['a claim that other tools are not to be used', /\b(?:all\s+)?other\s+(?:[\w-]+\s+){0,2}tools\s+are\s+(?:deprecated|unsafe|unreliable|broken|obsolete|dangerous)\b/i],
]);

/** Runs of at least this many characters, and their shortest spelling, which a shorter text cannot hold. */
const BASE64_MIN = 24;
const BASE64_RUN = new RegExp(`[A-Za-z0-9+/_-]{${BASE64_MIN},}={0,2}`, 'g');
const HEX_MIN = 32;
const HEX_RUN = new RegExp(`(?:[0-9a-fA-F]{2}){${HEX_MIN / 2},}`, 'g');
const URL_ESCAPE = /%[0-9a-fA-F]{2}/;

/**
 * Short texts in which neither secrets nor injections were found. Keys and the words of schemas
 * and results (`type`, `properties`, `text`) come back in every message, so each is searched
 * once. A text's findings depend on the text alone, so a remembered one is exactly as clean as
 * when it was searched. Bounded in count and length: a peer that sends ever-new texts fills it,
 * and from then on nothing more is remembered.
 */
const CLEAN = new Set<string>();
const CLEAN_MAX_TEXTS = 4096;
const CLEAN_MAX_LENGTH = 64;

/** How many clean texts are remembered, and the longest: for the test of the bounds. */
export function rememberedClean(): { readonly count: number; readonly longest: number } {
  return { count: CLEAN.size, longest: Math.max(0, ...[...CLEAN].map((text) => text.length)) };
}

/** Every finding in one normalised text and its decoded forms; empty when there is none. */
export function detect(text: string, kinds: readonly FindingKind[] = ['secret', 'injection']): Finding[] {
  if (CLEAN.has(text)) return [];
  const findings: Finding[] = [];
  const secrets = kinds.includes('secret');
  const injections = kinds.includes('injection');
  for (const [form, decoded] of forms(text)) {
    if (secrets) findings.push(...matches(decoded, SECRETS, 'secret', form));
    if (injections) findings.push(...matches(decoded, INJECTIONS, 'injection', form));
  }
  // Only a text searched for both kinds is clean of both.
  if (findings.length === 0 && secrets && injections && text.length <= CLEAN_MAX_LENGTH && CLEAN.size < CLEAN_MAX_TEXTS) CLEAN.add(text);
  return findings;
}

function matches(text: string, { named, anyOf }: PatternList, kind: FindingKind, form: string): Finding[] {
  if (!anyOf.some((any) => any.test(text))) return [];
  return named.filter(([, pattern]) => pattern.test(text)).map(([pattern]) => ({ kind, pattern, form }));
}

/**
 * The text itself, then each decoding of a run in it that could hide a payload. The scans for a
 * run are skipped on a text shorter than the shortest run, which could hold none.
 */
function forms(text: string): readonly (readonly [string, string])[] {
  const all: (readonly [string, string])[] = [['text', text]];
  if (text.length >= BASE64_MIN) {
    for (const [run] of text.matchAll(BASE64_RUN)) {
      all.push(['base64', Buffer.from(run.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1')]);
    }
  }
  if (text.length >= HEX_MIN) for (const [run] of text.matchAll(HEX_RUN)) all.push(['hex', Buffer.from(run, 'hex').toString('latin1')]);
  if (URL_ESCAPE.test(text)) all.push(['url-encoding', percentDecoded(text)]);
  return all;
}

/** %XX sequences as the bytes they name; malformed ones stay as written. */
function percentDecoded(text: string): string {
  return text.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export function describeFindings(findings: readonly Finding[]): string {
  return [...new Set(findings.map((f) => (f.form === 'text' ? f.pattern : `${f.pattern} (${f.form}-encoded)`)))].join(', ');
}
