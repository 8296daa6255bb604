import { existsSync } from 'node:fs';
import { mkdir, symlink } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { recordsUrlOpeners } from '../../observe/url-openers.js';

/**
 * Every program a Node broker (through the `open` package or by hand) or `xdg-open` may start to
 * show the user a page: an OAuth sign-in, for one.
 */
const BROWSER_LAUNCHERS = ['xdg-open', 'gio', 'x-www-browser', 'sensible-browser', 'www-browser', 'chromium', 'firefox', 'links', 'lynx', 'w3m'];

/** What tells a launcher there is a desktop to open a window on. */
const DESKTOP_VARIABLES = ['DISPLAY', 'WAYLAND_DISPLAY', 'XDG_CURRENT_DESKTOP', 'DESKTOP_SESSION'];

/**
 * The environment a third-party broker runs in for one session: the operator's, with its home
 * (and so every dot-directory it keeps tokens and caches in) inside the session's folder, and no
 * way to open a browser. A broker that decides to sign in interactively finds every launcher on
 * its PATH failing and `$BROWSER` failing, and no display to draw on: it has to say so and go on
 * or give up, and nothing of it outlives the session or reaches past loopback. Where the harness
 * already put its URL-opener recorders first on PATH and as `$BROWSER` (a scenario's session:
 * harness/observe/url-openers.ts), they stay: a launch is then written to the ledger, as evidence.
 */
export async function containedEnv(workdir: string, base: NodeJS.ProcessEnv): Promise<NodeJS.ProcessEnv> {
  const home = join(workdir, 'home');
  const noBrowser = join(workdir, 'no-browser');
  await mkdir(home, { recursive: true });
  const recorded = recordsUrlOpeners(base);
  // A scenario may start the broker more than once in the same folder.
  if (!recorded && !existsSync(noBrowser)) {
    await mkdir(noBrowser);
    await Promise.all(BROWSER_LAUNCHERS.map((name) => symlink('/bin/false', join(noBrowser, name))));
  }
  const env: NodeJS.ProcessEnv = { ...base };
  for (const variable of DESKTOP_VARIABLES) delete env[variable];
  return {
    ...env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    BROWSER: recorded ? base.BROWSER : '/bin/false',
    PATH: recorded ? base.PATH : [noBrowser, base.PATH ?? '/usr/bin:/bin'].join(delimiter),
  };
}
