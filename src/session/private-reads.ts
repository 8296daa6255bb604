// What a session has read of the operator's private data, for source-to-sink: a tool the operator
// marks `reads_private` is a source, and once a session has called one, anything the agent holds
// may be that data. Like the quarantine, it only grows: forgetting a read would let the data out
// on a later call.

export class PrivateReads {
  /** The offered name of the first source called, kept to name it in a refusal. */
  private first: string | undefined;

  read(tool: string): void {
    this.first ??= tool;
  }

  /** The first tool reaching private data this session called, or undefined when none was. */
  firstSource(): string | undefined {
    return this.first;
  }
}
