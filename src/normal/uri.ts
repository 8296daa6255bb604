// The form a URI is compared in (RFC 3986, 6.2.2, syntax-based normalisation): scheme and host in
// lower case, percent-encoded unreserved characters decoded and every other `%xx` in upper case,
// `.` and `..` segments removed, a scheme's default port dropped. `file:///Notes/%70ublic/./a`
// and `FILE:///Notes/public/a` are one URI; a path's case is kept, since RFC 3986 leaves it the
// server's to mean. The parse is WHATWG URL's, as the guards' elsewhere, so what is compared is
// what a client would fetch.

/** RFC 3986's unreserved characters, which a percent-encoding only disguises. */
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

const PERCENT = /%[0-9A-Fa-f]{2}/g;

/** `%xx` decoded when it encodes an unreserved character, upper-cased otherwise. */
function percentNormal(text: string): string {
  return text.replace(PERCENT, (escape) => {
    const char = String.fromCharCode(Number.parseInt(escape.slice(1), 16));
    return UNRESERVED.test(char) ? char : escape.toUpperCase();
  });
}

/** `text` in RFC 3986 normal form, or undefined when it is not an absolute URI. */
export function uriKey(text: string): string | undefined {
  if (!URL.canParse(text)) return undefined;
  // Parsed again after decoding, so that a segment decoded to `.` or `..` is removed as well; URL
  // parsing already takes `%2e` segments as dots, so the second parse is the last.
  const url = new URL(percentNormal(new URL(text).href));
  // WHATWG URL lower-cases the host of http, https, ws, wss and file only; RFC 3986 every host,
  // its escapes' hex digits staying in upper case.
  const host = url.host.toLowerCase().replace(PERCENT, (escape) => escape.toUpperCase());
  if (url.host !== host) url.host = host;
  return url.href;
}

/** Whether two URIs are one after normalisation; text that is no URI equals only itself. */
export const sameUri = (a: string, b: string): boolean => a === b || (uriKey(a) ?? a) === (uriKey(b) ?? b);
