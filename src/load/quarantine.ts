// The tools a rediscovery during the session found no longer matching what was reviewed. A tool
// once held stays held for the rest of the session: only a new review and a new Load can make it
// eligible again, never the server presenting the old contract once more.

export class Quarantine {
  /** Server tool name → the guard whose check the tool failed at rediscovery. */
  private readonly held = new Map<string, string>();

  hold(tool: string, guard: string): void {
    if (!this.held.has(tool)) this.held.set(tool, guard);
  }

  /** The guard that found the tool drifted, or undefined when it is not quarantined. */
  heldBy(tool: string): string | undefined {
    return this.held.get(tool);
  }
}
