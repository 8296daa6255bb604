import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { basename, delimiter, join } from 'node:path';
import type { LedgerRecord, OpenedRecord } from '../../servers/kit/ledger.js';
import { urlOpenerRecorderEntry } from '../paths.js';

/**
 * Every program a broker may start to show the user a page, on Linux: what the `open` npm package
 * runs (`xdg-open` from PATH when its own copy is not executable; `powershell.exe`/`pwsh` under
 * WSL; `open` on macOS, should a broker think it is there), what Python's `webbrowser` and
 * freedesktop's `xdg-open` try in turn (the `$BROWSER` list, then `x-www-browser`, `www-browser`
 * and the browsers by name), the desktops' own openers, and the Windows shapes a careless broker
 * would shell out to. The `open` package prefers the `xdg-open` script it ships: with no desktop
 * to find, that script runs `$BROWSER`, which is the recorder too.
 */
export const URL_OPENERS = [
  'xdg-open', 'open', 'sensible-browser', 'x-www-browser', 'www-browser', 'gnome-open', 'kde-open', 'kde-open5', 'kfmclient',
  'gio', 'gvfs-open', 'exo-open', 'wslview', 'cmd.exe', 'cmd', 'powershell', 'powershell.exe', 'pwsh', 'start', 'explorer.exe',
  'run-mailcap', 'mimeopen', 'firefox', 'iceweasel', 'seamonkey', 'mozilla', 'epiphany', 'konqueror', 'chromium', 'chromium-browser',
  'google-chrome', 'links2', 'elinks', 'links', 'lynx', 'w3m',
] as const;

/** The name `$BROWSER` records under. */
export const BROWSER_VARIABLE = 'BROWSER';

const quoted = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

/** A script that hands its arguments, whole, to the recorder under `name`. */
const recorderScript = (ledger: string, name: string): string =>
  `#!/bin/sh\nexec ${quoted(process.execPath)} ${quoted(urlOpenerRecorderEntry)} ${quoted(ledger)} ${quoted(name)} "$@"\n`;

/**
 * Puts a recorder under every opener's name in `dir`, each writing to `ledger`, and returns the
 * environment `base` becomes with them first on PATH and as `$BROWSER`.
 */
export async function withUrlOpeners(base: NodeJS.ProcessEnv, dir: string, ledger: string): Promise<NodeJS.ProcessEnv> {
  await mkdir(dir, { recursive: true });
  const write = async (name: string) => {
    const path = join(dir, name);
    await writeFile(path, recorderScript(ledger, name));
    await chmod(path, 0o755);
    return path;
  };
  await Promise.all(URL_OPENERS.map(write));
  const browser = await write(BROWSER_VARIABLE);
  return { ...base, BROWSER: browser, PATH: [dir, base.PATH ?? '/usr/bin:/bin'].join(delimiter) };
}

/** Whether `env` already sends every URL opener to a recorder: its `$BROWSER` is one. */
export const recordsUrlOpeners = (env: NodeJS.ProcessEnv): boolean => env.BROWSER !== undefined && basename(env.BROWSER) === BROWSER_VARIABLE;

/** Every launch of a URL opener the recorder saw. */
export const openedRecords = (records: readonly LedgerRecord[]): OpenedRecord[] => records.filter((r): r is OpenedRecord => r.ev === 'opened');

/** Each argument of a launch that reads as a URL (a scheme, then a colon), parsed; options and plain words are not. */
export function launchedUrls(record: OpenedRecord): Array<{ text: string; url: URL }> {
  return record.args.flatMap((text) => {
    if (!/^[a-z][a-z0-9+.-]*:/i.test(text)) return [];
    try {
      return [{ text, url: new URL(text) }];
    } catch {
      return [];
    }
  });
}

/** One launch in words, for a finding. */
export const describeLaunch = (record: OpenedRecord): string => `${record.opener} ${record.args.map((arg) => JSON.stringify(arg)).join(' ')}`;
