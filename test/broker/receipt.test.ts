// The receipt merged into a forwarded result's _meta, with the rest of the result as received.

import { describe, expect, it } from 'vitest';
import { readJson } from '../../src/json/reader.js';
import { writeJson } from '../../src/json/writer.js';
import { withReceipt } from '../../src/session/receipt.js';

const RECEIPT = '"io.mcp-gauntlet/receipt":{"tool":"save_note","permission":"notes.write","trust":"untrusted","data_classification":"secret"}';
const stamp = (result: string) =>
  writeJson(withReceipt(readJson(result), { tool: 'save_note', permission: 'notes.write', dataClassification: 'secret' }));

describe('withReceipt', () => {
  it('adds _meta at the end, keeping every other part and number as received', () => {
    expect(stamp('{"content":[],"structuredContent":{"n":9007199254740993,"x":1.50}}')).toBe(
      `{"content":[],"structuredContent":{"n":9007199254740993,"x":1.50},"_meta":{${RECEIPT}}}`,
    );
  });

  it("merges into the server's _meta in place, and replaces a receipt the server wrote itself", () => {
    expect(stamp('{"_meta":{"a":1,"io.mcp-gauntlet/receipt":{"tool":"x","trust":"trusted"},"b":2},"content":[]}')).toBe(
      `{"_meta":{"a":1,"b":2,${RECEIPT}},"content":[]}`,
    );
    expect(stamp('{"_meta":"nonsense","isError":true}')).toBe(`{"_meta":{${RECEIPT}},"isError":true}`);
  });

  it('writes null for no permission, and leaves a result that is not an object alone', () => {
    const none = writeJson(withReceipt(readJson('{}'), { tool: 't', permission: undefined, dataClassification: 'workspace' }));
    expect(none).toBe('{"_meta":{"io.mcp-gauntlet/receipt":{"tool":"t","permission":null,"trust":"untrusted","data_classification":"workspace"}}}');
    expect(stamp('[1]')).toBe('[1]');
  });
});
