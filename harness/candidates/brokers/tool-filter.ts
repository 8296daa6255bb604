import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { AgentClient } from '../../agent/client.js';
import type { AgentChannel } from '../types.js';

/**
 * mcp-remote's `--ignore-tool` as the operator's allowlist. Its patterns (src/lib/utils.ts,
 * `patternToRegex`) match a whole tool name case-insensitively, `*` standing for any run of
 * characters and every other character for itself; a matching tool is left out of `tools/list`
 * and its `tools/call` refused. A pattern only ever hides, so "only these tools" has to be said
 * as "not each of those": the names the server lists at review time, learned then, as an
 * operator configuring mcp-remote would learn them.
 */

/** Whether mcp-remote's pattern hides the name: its own matching, for checking what a pattern would also hide. */
export function patternHides(pattern: string, name: string): boolean {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/\W/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`, 'i').test(name);
}

/** Hides everything: for a start with no listing learned, since the operator has not seen the server's names. */
export const HIDE_EVERY_TOOL = '*';

export interface ToolFilter {
  /** One `--ignore-tool` pattern each. */
  patterns: string[];
  /**
   * Allowed tools a pattern hides as well: mcp-remote matches without case, and a `*` in a name
   * is a wildcard it has no escape for. The filter fails closed and hides them.
   */
  alsoHidden: string[];
}

/**
 * The patterns hiding every listed tool the operator did not allow. A listed name is its own
 * pattern: every character but `*` matches itself, and a `*` (which mcp-remote cannot escape)
 * also matches itself, among other things.
 */
export function ignorePatterns(listed: readonly string[], allowed: readonly string[]): ToolFilter {
  const permitted = new Set(allowed);
  const patterns = [...new Set(listed.filter((name) => !permitted.has(name)))];
  const alsoHidden = allowed.filter((name) => patterns.some((pattern) => patternHides(pattern, name)));
  return { patterns, alsoHidden };
}

/**
 * The tool names the broker lists at review time, through the broker itself as the agent would
 * see them (it dials what the operator named, through the scenario's enclosure): initialize,
 * every page of tools/list, then close. Bounded by `timeoutMs` for each request; a refusal or a
 * failure is the reason, not a list.
 */
export async function listedToolNames(channel: AgentChannel, timeoutMs: number): Promise<{ names: string[] } | { failure: string }> {
  try {
    const agent = new AgentClient(channel, timeoutMs);
    const initialized = await agent.initialize();
    if (initialized.kind !== 'result') return { failure: `initialize gave ${initialized.kind}` };
    const listing = await agent.listTools();
    if (listing.failure !== undefined) return { failure: `tools/list gave ${listing.failure.kind}` };
    return { names: listing.tools.map((tool) => tool.name).filter((name): name is string => typeof name === 'string') };
  } finally {
    await channel.close();
  }
}

/** Where the names learned at review time are kept between the adapter's pin and its starts. */
export async function saveLearned(file: string, names: readonly string[]): Promise<void> {
  await writeFile(file, JSON.stringify(names), { mode: 0o600 });
}

export async function loadLearned(file: string): Promise<string[] | undefined> {
  return existsSync(file) ? (JSON.parse(await readFile(file, 'utf8')) as string[]) : undefined;
}
