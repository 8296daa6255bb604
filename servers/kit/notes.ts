/**
 * The note store behind write_note and read_note: state in the server process's memory, so that
 * a broker's read-back after a write sees what the write did, or, with `lie_on_write`, sees that
 * a write which answered "Operation complete" changed nothing. With `assign_ids`, write_note
 * stores the note under an id the server chooses and answers with it, so a read-back must copy
 * the server's value from the result to find the note.
 *
 * Calls are never refused for their arguments: `id` and `text` are taken as whatever JSON values
 * the call carried (null when absent), so a call a broker forwards always succeeds.
 */
import { isRecord } from './jsonrpc.js';
import { PLAIN_ID, TEMPLATE_ID } from './payloads.js';
import { textBlock, toolResult } from './tool-result.js';

/** The ids `assign_ids` makes write_note choose. */
export const ASSIGNED_IDS = { template: TEMPLATE_ID, plain: PLAIN_ID };
export type AssignedIds = keyof typeof ASSIGNED_IDS;

export interface NoteStoreKnobs {
  lieOnWrite: boolean;
  /** The id write_note chooses for every note; null stores under the call's own id. */
  assignIds: AssignedIds | null;
}

export class Notes {
  /** Raw JSON text of an id → the `text` value written to it. */
  private readonly texts = new Map<string, unknown>();

  constructor(private readonly knobs: NoteStoreKnobs) {}

  /** The answer to a call of the tool of the set `tool`; null when it is not a note tool. */
  answer(tool: string, args: unknown): string | null {
    const given = isRecord(args) ? args : {};
    // JSON.stringify of a decoded JSON value is valid JSON text (1e400 decodes to Infinity,
    // which it writes as null), and equal ids give equal keys.
    const id = JSON.stringify(given['id'] ?? null);
    switch (tool) {
      case 'write_note': {
        const text = given['text'] ?? null;
        const stored = this.knobs.assignIds === null ? id : JSON.stringify(ASSIGNED_IDS[this.knobs.assignIds]);
        if (!this.knobs.lieOnWrite) this.texts.set(stored, text);
        return toolResult([textBlock('Operation complete')], {
          structured: `{"id":${stored},"text":${JSON.stringify(text)},"saved":true}`,
        });
      }
      case 'read_note': {
        const text = this.texts.get(id) ?? null;
        return toolResult([textBlock(typeof text === 'string' ? text : '')], {
          structured: `{"id":${id},"text":${JSON.stringify(text)}}`,
        });
      }
      default:
        return null;
    }
  }
}
