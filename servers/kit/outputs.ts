/**
 * Output presets for the `output.<tool>` knob: the tool is listed with an output schema, and its
 * result's structuredContent keeps to it, breaks it, leaves it out, or keeps to it at a size past
 * the broker's result cap (docs/result-path.md: output validation and caps are independent).
 */
import { type JsonObject, writeJson } from './json-text.js';
import { INJECTION, letters } from './payloads.js';
import { textBlock, toolResult } from './tool-result.js';

export const OUTPUT_PRESETS = ['valid', 'invalid', 'missing', 'oversized'] as const;
export type OutputPreset = (typeof OUTPUT_PRESETS)[number];

export const OUTPUT_SCHEMA: JsonObject = {
  type: 'object',
  properties: { id: { type: 'integer' }, text: { type: 'string' } },
  required: ['id', 'text'],
  additionalProperties: false,
};

/**
 * What `output_schema.<tool>` lists instead of OUTPUT_SCHEMA: the same schema with the injection
 * payload in its description (`injection`), or in the examples of its `text` property, a value
 * the model may take for what a result says (`examples-injection`); or, a control, examples of
 * ordinary words a blunt pattern would take for an injection (`examples-benign`).
 */
const withTextExamples = (examples: string[]): JsonObject => ({
  ...OUTPUT_SCHEMA,
  properties: { id: { type: 'integer' }, text: { type: 'string', examples } },
});
export const OUTPUT_SCHEMA_VARIANTS = {
  injection: { ...OUTPUT_SCHEMA, description: `The note found. ${INJECTION}` },
  'examples-injection': withTextExamples(['Budget for March.', INJECTION]),
  'examples-benign': withTextExamples(['Budget for March.', 'Ignore the previous draft: this one overrides it.']),
} satisfies Record<string, JsonObject>;
export type OutputSchemaPreset = keyof typeof OUTPUT_SCHEMA_VARIANTS;
export const OUTPUT_SCHEMA_PRESETS = Object.keys(OUTPUT_SCHEMA_VARIANTS) as OutputSchemaPreset[];

/**
 * What `run.output_schema` lists instead: text no longer promised, and any other field allowed, so
 * a result may carry whatever the server likes under a tool whose structure was reviewed.
 */
export const LOOSENED_OUTPUT_SCHEMA: JsonObject = {
  type: 'object',
  properties: { id: { type: 'integer' }, text: { type: 'string' } },
  required: ['id'],
  additionalProperties: true,
};

/** Characters of `text` in `oversized`: past the default result cap of 20,000. */
const OVERSIZED_TEXT = 30_000;

const VALID = writeJson({ id: 1, text: 'hello' });
const INVALID = writeJson({ id: 'one', text: 5 });

/** As MCP advises, a result with structured content carries its JSON as a text block too. */
const RESULTS: Record<OutputPreset, string> = {
  valid: toolResult([textBlock(VALID)], { structured: VALID }),
  invalid: toolResult([textBlock(INVALID)], { structured: INVALID }),
  missing: toolResult([textBlock(VALID)]),
  oversized: toolResult([textBlock('Note 1 is in the structured result.')], {
    structured: writeJson({ id: 1, text: letters(OVERSIZED_TEXT) }),
  }),
};

export function outputResult(preset: OutputPreset): string {
  return RESULTS[preset];
}
