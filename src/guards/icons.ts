// The icons of a tool, resource, template or prompt, as MCP's Icons section (2025-11-25, kept in
// 2026-07-28) tells a consumer to treat them: untrusted metadata that a client will fetch and
// render. The agent is shown an icon only when rendering it can do no harm: an https URL on the server's own origin (never fetched by the
// broker), or a small `data:` image of a raster type whose bytes are what it says. Anything else
// (another scheme, another host, SVG, which is active content, a type the bytes belie, a size or
// count past the bounds) is dropped from the descriptor, and the tool (or resource, or prompt) is
// still offered: an icon is decoration, so dropping it costs the agent nothing it needs, where
// withholding the tool would let a server's icon take its own tool away.

import { canonicalJson } from '../json/canonical.js';
import { member, object } from '../json/tree.js';
import { BASE64 } from '../result/non-text.js';
import type { JsonArray, JsonObject, JsonValue, ServerSpec } from '../types.js';
import type { FeatureGuard, PresentationGuard } from './types.js';

/** At most this many icons of one tool are judged; the rest are dropped unread. */
export const MAX_ICONS = 8;
/** The most bytes a `data:` icon's image may have. */
export const MAX_ICON_BYTES = 16 * 1024;
/**
 * The most characters the `src`s of one tool's icons kept may have together: with the rest of the
 * descriptor, well within what inspection reads of it (inspect/bounds.ts), so that icons safe one
 * by one cannot together make the tool's descriptor too large to inspect and so withheld.
 */
export const MAX_ICONS_CHARS = 32 * 1024;
/** The longest `src` of an https icon, in characters. */
const MAX_URL_CHARS = 2048;

/**
 * The raster types MCP names for icons, by the signature their bytes begin with (the four formats'
 * own specifications; four fixed prefixes need no library). `image/jpg` is MCP's alias of jpeg.
 */
const RASTER: Readonly<Record<string, (bytes: Buffer) => boolean>> = {
  'image/png': (bytes) => bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (bytes) => bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff])),
  'image/gif': (bytes) => ['GIF87a', 'GIF89a'].includes(bytes.subarray(0, 6).toString('latin1')),
  'image/webp': (bytes) => bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP',
};
const canonicalType = (type: string): string => (type === 'image/jpg' ? 'image/jpeg' : type);

/** `data:<raster type>;base64,<canonical base64>`, nothing else (no parameters, no percent-encoding). */
const DATA_URI = /^data:(image\/[a-z]+);base64,(.*)$/s;
/** A `sizes` entry: `WxH` or `any`. */
const SIZE = /^(?:[1-9]\d{0,4}x[1-9]\d{0,4}|any)$/;

/** Whether the `data:` URI is a small raster image whose bytes match its type and the declared one. */
function safeData(src: string, declared: string | undefined): boolean {
  const match = DATA_URI.exec(src);
  if (match === null) return false;
  const type = canonicalType(match[1]!);
  const data = match[2]!;
  const matches = RASTER[type];
  if (matches === undefined || (declared !== undefined && canonicalType(declared) !== type)) return false;
  // Bounded before it is decoded: four characters are three bytes.
  if (data.length > Math.ceil(MAX_ICON_BYTES / 3) * 4 || !BASE64.test(data)) return false;
  const bytes = Buffer.from(data, 'base64');
  return bytes.length <= MAX_ICON_BYTES && matches(bytes);
}

/** Whether the URL is https on the server's own origin; a stdio server has no origin, so none is. */
function sameOrigin(src: string, declared: string | undefined, server: ServerSpec): boolean {
  if (server.url === undefined || server.url.protocol !== 'https:' || src.length > MAX_URL_CHARS) return false;
  if (declared !== undefined && RASTER[canonicalType(declared)] === undefined) return false;
  if (!URL.canParse(src)) return false;
  const url = new URL(src);
  return url.protocol === 'https:' && url.username === '' && url.password === '' && url.origin === server.url.origin;
}

/** The icon rebuilt from MCP's members, each checked; undefined when it is not safe to show. */
function safeIcon(icon: JsonValue, server: ServerSpec): JsonObject | undefined {
  if (icon.kind !== 'object') return undefined;
  const text = (key: string): string | undefined | null => {
    const value = member(icon, key);
    return value === undefined ? undefined : value.kind === 'string' ? value.value : null;
  };
  const src = text('src');
  const mimeType = text('mimeType');
  const theme = text('theme');
  const sizes = member(icon, 'sizes');
  if (typeof src !== 'string' || mimeType === null || theme === null) return undefined;
  if (theme !== undefined && theme !== 'light' && theme !== 'dark') return undefined;
  if (sizes !== undefined && (sizes.kind !== 'array' || sizes.items.length > MAX_ICONS || !sizes.items.every((size) => size.kind === 'string' && SIZE.test(size.value)))) return undefined;
  if (!(src.startsWith('data:') ? safeData(src, mimeType) : sameOrigin(src, mimeType, server))) return undefined;
  return object([
    ['src', member(icon, 'src')],
    ['mimeType', member(icon, 'mimeType')],
    ['sizes', sizes],
    ['theme', member(icon, 'theme')],
  ]);
}

/** The icons safe to show, in the server's order, while their `src`s stay within the bound; undefined when none is. */
export function safeIcons(icons: JsonArray, server: ServerSpec): JsonArray | undefined {
  const kept: JsonObject[] = [];
  let chars = 0;
  for (const icon of icons.items.slice(0, MAX_ICONS)) {
    const safe = safeIcon(icon, server);
    const src = safe === undefined ? undefined : member(safe, 'src');
    if (safe === undefined || src?.kind !== 'string' || chars + src.value.length > MAX_ICONS_CHARS) continue;
    chars += src.value.length;
    kept.push(safe);
  }
  return kept.length === 0 ? undefined : { kind: 'array', items: kept };
}

/**
 * A tool's icons are shown only as the operator reviewed them: icons that appeared, changed or
 * went away since the pin are dropped (compared as canonical JSON, before icons-safe rebuilds
 * them), and the tool is still offered, as an unsafe icon is dropped. A tool the manifest does not
 * pin has nothing to compare with (`pinned` refuses it, unless disabled).
 */
export const iconsPin: PresentationGuard = {
  name: 'icons-pin',
  present(shown, _effect, _rule, _limits, _server, pin) {
    if (pin === undefined || shown.icons === undefined) return shown;
    const same = pin.icons !== undefined && canonicalJson(pin.icons) === canonicalJson(shown.icons);
    return same ? shown : { ...shown, icons: undefined };
  },
};

export const iconsSafe: PresentationGuard = {
  name: 'icons-safe',
  present: (shown, _effect, _rule, _limits, server) => (shown.icons === undefined ? shown : { ...shown, icons: safeIcons(shown.icons, server) }),
};

/** The same guard on a resource's, template's or prompt's descriptor: `icons` that are not an array are dropped too. */
export const iconsSafeFeatures: FeatureGuard = {
  name: 'icons-safe',
  present({ shown, config }) {
    const icons = member(shown, 'icons');
    if (icons === undefined) return { ok: true, shown };
    const kept = icons.kind === 'array' ? safeIcons(icons, config.server) : undefined;
    return { ok: true, shown: object(shown.entries.map(([key, value]) => [key, key === 'icons' ? kept : value])) };
  },
};
