// The tools a rediscovery during the session found no longer matching what was reviewed. A tool
// once held stays held for the rest of the session: only a new review and a new Load can make it
// eligible again, never the server presenting the old contract once more.

export class Quarantine {
  /**
   * Offered name → the guard whose check the tool failed at rediscovery. By the name the agent
   * calls, which is one tool's alone: with several servers, one server's tool drifting never holds
   * another server's tool of the same server name.
   */
  private readonly held = new Map<string, string>();

  hold(tool: string, guard: string): void {
    if (!this.held.has(tool)) this.held.set(tool, guard);
  }

  /** The guard that found the tool drifted, or undefined when it is not quarantined. */
  heldBy(tool: string): string | undefined {
    return this.held.get(tool);
  }
}
