// Whether a field of an elicitation form asks the user for a credential (MCP: a server must not
// ask for sensitive information in a form, whose answer passes through the agent). Decided on the
// field: its property name, its `format`, and what its title and description ask for. A word in
// prose that tells the user NOT to give something ("do not give us your phone number, pin, or
// other sensitive info") asks for nothing, so the prose is read clause by clause and what follows
// a prohibition to give is not counted; a name is an identifier, not prose, and always counts.
// The reading is a word list, not language understanding: docs/reference-broker.md says what it
// misses.

import { normalise } from '../inspect/normalise.js';
import { member, stringValue } from '../json/tree.js';
import type { JsonValue } from '../types.js';

/** What gave a field away, as a refusal names it. */
export type CredentialCue = 'name' | 'format' | 'title' | 'description';

/**
 * A credential, on text in lower-case words separated by single spaces. `token` and `pin` are
 * singular only, so that a count of tokens or a map's pins is not one.
 */
const CREDENTIAL =
  /\b(?:pass ?(?:word|phrase|code)s?|pin|pin ?codes?|otp|totp|token|secrets?|credentials?|api ?keys?|private ?keys?|one ?time ?(?:code|password|passcode|pin|token)s?|(?:verification|security|2fa|mfa) codes?|cvv|cvc)\b/;

/** A prohibition to give: a negation, then a verb of giving. What follows it in its clause is not asked for. */
const PROHIBITION = /\b(?:do not|don t|dont|never|must not|should not|shouldn t|not to|no need to)(?: ever)? (?:give|share|enter|type|provide|send|include|disclose|reveal|tell|paste|submit|put|write|input|use)\b/;

/**
 * Where a clause ends, and so a prohibition's reach: a sentence's or a bracket's end, or a word
 * that turns to what is asked after all ("do not give anyone but us your password").
 */
const CLAUSE_END = /[.;:!?()[\]{}\r\n]|\b(?:but|except|unless|instead|however|only|other than)\b/i;

/** Text as lower-case words: camelCase and acronyms split ("APIKey" is "api key"), anything else a space. */
export function words(text: string): string {
  return normalise(text)
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** Whether an identifier names a credential. */
export function namesCredential(identifier: string): boolean {
  return CREDENTIAL.test(words(identifier));
}

/** Whether prose asks for a credential: a credential named in a clause before any prohibition to give. */
export function asksForCredential(prose: string): boolean {
  return normalise(prose)
    .split(new RegExp(CLAUSE_END, 'gi'))
    .some((clause) => {
      const text = words(clause);
      const prohibited = PROHIBITION.exec(text);
      return CREDENTIAL.test(prohibited === null ? text : text.slice(0, prohibited.index));
    });
}

/** What shows that a form field asks for a credential, or undefined when nothing does. */
export function credentialCue(name: string, field: JsonValue): CredentialCue | undefined {
  if (namesCredential(name)) return 'name';
  if (field.kind !== 'object') return undefined;
  // JSON Schema's and OpenAPI's mark of a field a form masks as it is typed.
  if (stringValue(member(field, 'format'))?.toLowerCase() === 'password') return 'format';
  if (asksForCredential(stringValue(member(field, 'title')) ?? '')) return 'title';
  if (asksForCredential(stringValue(member(field, 'description')) ?? '')) return 'description';
  return undefined;
}
