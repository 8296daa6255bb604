/**
 * completion/complete: suggestions for a prompt's argument or a resource template's variable.
 * Every reference is answered, a prompt or template the server does not have included, so a
 * broker that forwards a completion it should have refused is seen. With `completion=leak` the
 * suggestions also name what an operator hides (a prompt, a resource); with `completion=oversized`
 * there are thousands of them.
 */
import { isRecord } from './jsonrpc.js';
import { writeJson } from './json-text.js';
import type { Knobs } from './knobs.js';
import { letters } from './payloads.js';

const TOPICS = ['budget', 'birthdays', 'books'];
const IDS = ['1', '2'];
/** Hidden names a leaking completion hands out: the hidden prompt and the key file. */
export const LEAKED = ['export_everything', 'file:///private/keys.txt'];
/**
 * Ten times MCP's bound of 100 values, each 50 characters: about 50 KB, within every inspection
 * bound, so only a bound on the completion itself holds it.
 */
const OVERSIZED_COUNT = 1_000;
const OVERSIZED_CHARS = 50;

export function completeResult(knobs: Knobs, params: unknown): string {
  const ref = isRecord(params) && isRecord(params['ref']) ? params['ref'] : {};
  const argument = isRecord(params) && isRecord(params['argument']) ? params['argument'] : {};
  const typed = typeof argument['value'] === 'string' ? argument['value'] : '';
  const pool = ref['type'] === 'ref/resource' ? IDS : TOPICS;
  let values = pool.filter((value) => value.startsWith(typed));
  if (knobs.completion === 'leak') values = [...values, ...LEAKED];
  if (knobs.completion === 'oversized') values = Array.from({ length: OVERSIZED_COUNT }, (_, i) => `topic-${String(i + 1).padStart(5, '0')}-${letters(OVERSIZED_CHARS)}`.slice(0, OVERSIZED_CHARS));
  return writeJson({ completion: { values, total: values.length, hasMore: false } });
}
