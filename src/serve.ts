// `gauntlet-broker serve`: Load (listing, guards, load report), then the MCP session with the
// agent. Every input the operator gave is checked before the server is started, and the server's
// group is stopped on every way out.

import type { Readable, Writable } from 'node:stream';
import { loadConfig } from './config.js';
import { EXIT } from './errors.js';
import { writeTextFile } from './files.js';
import { selectGuards } from './guards/registry.js';
import { decideTools } from './load.js';
import { loadManifest, type Manifest } from './manifest.js';
import { reportText } from './report.js';
import { runSession } from './session.js';
import { startAndList } from './startup.js';

export interface ServeOptions {
  readonly configPath: string;
  /** Without a manifest nothing is pinned, so every tool is unpinned (the harness serves this way
   * after a refused pin). */
  readonly manifestPath: string | undefined;
  readonly reportPath: string | undefined;
  readonly disabledGuards: readonly string[];
}

export interface ServeIo {
  readonly input: Readable;
  readonly output: Writable;
  /** Diagnostics; never the MCP channel. */
  readonly log: (line: string) => void;
}

/** Returns the exit code; throws a BrokerError for the failures that have their own code. */
export async function serve(options: ServeOptions, io: ServeIo): Promise<number> {
  const config = loadConfig(options.configPath);
  const manifest: Manifest =
    options.manifestPath === undefined
      ? { server: config.server.id, tools: new Map() }
      : loadManifest(options.manifestPath, config.server.id);
  const guards = selectGuards(options.disabledGuards);

  const { upstream, listed } = await startAndList(config, guards.listing);
  try {
    const outcome = decideTools(listed, manifest, config, guards);
    if (options.reportPath !== undefined) {
      writeTextFile(options.reportPath, reportText(config.server.id, outcome), 'load report');
    }
    for (const guard of guards.serve) {
      const reason = guard.check(outcome.registered.length);
      if (reason === null) continue;
      io.log(`guard ${guard.name} stopped the broker: ${reason}`);
      return EXIT.nothingRegistered; // the finally below stops the server's group first
    }
    io.log(`serving ${outcome.registered.length} tool(s) from server "${config.server.id}"`);
    await runSession(io.input, io.output, {
      tools: outcome.registered,
      callGuards: guards.call,
      defaultCallTimeoutMs: config.limits.callTimeoutMs,
      upstream,
    });
    return EXIT.ok;
  } finally {
    await upstream.close();
  }
}
