// Resource URIs as the broker judges them: parsed and normalised once, so that `..`, its
// percent-encoded forms and encoded slashes cannot climb out of what the operator allows, then
// compared with the operator's prefixes and templates. What is judged is what is forwarded.

/** A URI the broker may judge: normalised by URL parsing, with nothing left that decodes to a climb. */
export type Normalised = { readonly ok: true; readonly href: string } | { readonly ok: false; readonly reason: string };

export function normaliseUri(text: string): Normalised {
  if (!URL.canParse(text)) return { ok: false, reason: 'not an absolute URI' };
  const url = new URL(text);
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
  return { ok: true, href: url.href };
}

/** A variable's value in an allowed expansion: plain characters, never a slash or an escape. */
const TEMPLATE_VALUE = '[A-Za-z0-9_~-][A-Za-z0-9._~-]*';

/** The URIs a template (RFC 6570 variables, each taken as one plain path segment) expands to. */
export function templatePattern(template: string): RegExp {
  const parts = template.split(/\{[^}]*\}/);
  return new RegExp(`^${parts.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join(TEMPLATE_VALUE)}$`);
}

export const isTemplate = (entry: string): boolean => /\{[^}]*\}/.test(entry);

/** Whether the operator's allowlist admits a normalised URI: under one of its prefixes, or an expansion of one of its templates. */
export function allowedUri(href: string, allow: readonly string[]): boolean {
  return allow.some((entry) => (isTemplate(entry) ? templatePattern(entry).test(href) : underPrefix(href, entry)));
}

/**
 * Whether the operator's allowlist admits a template the server lists: named exactly, or with its
 * text before the first variable under an allowed prefix. Each variable expands to one plain
 * segment (templatePattern), so no expansion leaves that prefix.
 */
export function allowedTemplate(template: string, allow: readonly string[]): boolean {
  const fixed = template.slice(0, template.search(/\{/) < 0 ? template.length : template.search(/\{/));
  return allow.includes(template) || allow.some((entry) => !isTemplate(entry) && underPrefix(fixed, entry));
}

function normalisedPrefix(prefix: string): string {
  const normal = normaliseUri(prefix);
  return normal.ok ? normal.href : prefix;
}

/** A prefix ending in `/` admits what is under it; any other admits exactly itself. */
function underPrefix(href: string, prefix: string): boolean {
  const normal = normalisedPrefix(prefix);
  return normal.endsWith('/') ? href.startsWith(normal) : href === normal;
}
