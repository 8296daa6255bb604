// Resource URIs as the broker judges them: parsed and normalised once (RFC 3986, src/normal/uri.ts),
// so that `..`, its percent-encoded forms and encoded slashes cannot climb out of what the
// operator allows, and `%6eotes` or an upper-case scheme or host is the URI it spells, then
// compared with the operator's prefixes and templates. What is judged is what is forwarded.

import { uriKey } from '../normal/uri.js';

/** A URI the broker may judge: in RFC 3986 normal form, with nothing left that decodes to a climb. */
export type Normalised = { readonly ok: true; readonly href: string } | { readonly ok: false; readonly reason: string };

export function normaliseUri(text: string): Normalised {
  if (text.length > MAX_URI_CHARS) return { ok: false, reason: `it is longer than ${MAX_URI_CHARS} characters` };
  const href = uriKey(text);
  if (href === undefined) return { ok: false, reason: 'not an absolute URI' };
  const url = new URL(href);
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'it carries credentials' };
  let decoded: string;
  try {
    decoded = decodeURIComponent(url.pathname);
  } catch {
    return { ok: false, reason: 'its percent-encoding is malformed' };
  }
  // URL parsing has already removed `.` and `..` segments, `%2e` forms included; one left after
  // decoding came from an encoded slash, which a server decoding the path would follow.
  if (/[\\\0]/.test(decoded) || decoded.split('/').some((segment) => segment === '.' || segment === '..')) {
    return { ok: false, reason: 'its path climbs out of where it points once decoded' };
  }
  return { ok: true, href };
}

/** Longer URIs are no resource an agent needs: refused before anything is matched against them. */
export const MAX_URI_CHARS = 4096;
/** Longer templates are withheld, so that matching one URI against one template is bounded. */
export const MAX_TEMPLATE_CHARS = 1024;

/** A variable's value in an allowed expansion: plain characters, never a slash or an escape. */
const VALUE_FIRST = /[A-Za-z0-9_~-]/;
const VALUE_REST = /[A-Za-z0-9._~-]/;

/** A template as the matcher walks it: each literal character, and each variable. */
type Piece = { readonly literal: string } | { readonly variable: true };

function piecesOf(template: string): Piece[] {
  return template.split(/(\{[^}]*\})/).flatMap((part, index): Piece[] => (index % 2 === 1 ? [{ variable: true }] : [...part].map((literal) => ({ literal }))));
}

/**
 * Whether a URI is an expansion of a template (RFC 6570 variables, each taken as one plain path
 * segment). Decided by walking every way through the template at once, one character of the URI
 * at a time: time grows with the URI's length times the template's, whatever their shape. A regex
 * made from the template instead backtracks over every way of cutting the URI among adjacent
 * variables, and a server choosing the template chooses how long a read takes to judge.
 */
export function expandsTemplate(template: string, href: string): boolean {
  const pieces = piecesOf(template);
  // State 2i: before piece i; 2i + 1: inside variable i, one character or more taken.
  const closed = (states: Set<number>): Set<number> => {
    for (const state of [...states]) if (state % 2 === 1) states.add(state + 1);
    return states;
  };
  let states = new Set([0]);
  for (const char of href) {
    const next = new Set<number>();
    for (const state of states) {
      const piece = pieces[Math.floor(state / 2)];
      if (piece === undefined) continue;
      if ('literal' in piece) {
        if (piece.literal === char) next.add(state + 2);
      } else if (state % 2 === 0 ? VALUE_FIRST.test(char) : VALUE_REST.test(char)) {
        next.add(state % 2 === 0 ? state + 1 : state);
      }
    }
    if (next.size === 0) return false;
    states = closed(next);
  }
  return states.has(pieces.length * 2);
}

export const isTemplate = (entry: string): boolean => /\{[^}]*\}/.test(entry);

/** Whether the operator's allowlist admits a normalised URI: under one of its prefixes, or an expansion of one of its templates. */
export function allowedUri(href: string, allow: readonly string[]): boolean {
  return allow.some((entry) => (isTemplate(entry) ? expandsTemplate(entry, href) : underPrefix(href, entry)));
}

/**
 * Whether the operator's allowlist admits a template the server lists: named exactly, or with its
 * text before the first variable under an allowed prefix. Each variable expands to one plain
 * segment (expandsTemplate), so no expansion leaves that prefix.
 */
export function allowedTemplate(template: string, allow: readonly string[]): boolean {
  if (template.length > MAX_TEMPLATE_CHARS) return false;
  const fixed = template.slice(0, template.search(/\{/) < 0 ? template.length : template.search(/\{/));
  return allow.includes(template) || allow.some((entry) => !isTemplate(entry) && underPrefix(fixed, entry));
}

function normalisedPrefix(prefix: string): string {
  const normal = normaliseUri(prefix);
  return normal.ok ? normal.href : prefix;
}

/**
 * A prefix ending in `/` admits what is under it; any other admits itself and what is under it as
 * a folder. Never a sibling whose name starts with its text: `file:///notes` does not admit
 * `file:///notes-private/...`, the string-prefix match of published path-allowlist bypasses.
 */
function underPrefix(href: string, prefix: string): boolean {
  const normal = normalisedPrefix(prefix);
  return normal.endsWith('/') ? href.startsWith(normal) : href === normal || href.startsWith(`${normal}/`);
}
