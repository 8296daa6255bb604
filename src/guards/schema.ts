// Guards on a tool's input schema, in the order they run: it must describe an object, name
// nothing outside itself, have every reference inside it land on one of its schemas, hide
// parameters soundly, and compile once they are hidden. The order matters: nothing is compiled
// before self-contained and references-resolve have looked at it.

import { hidingProblem } from '../load/hidden.js';
import { member } from '../json/tree.js';
import { unresolvedReference } from '../schema/local-references.js';
import { externalReference } from '../schema/references.js';
import type { ToolGuard, ToolVerdict } from './types.js';

const PASS: ToolVerdict = { kind: 'pass' };
const refuse = (reason: string): ToolVerdict => ({ kind: 'refuse', reason });
const verdict = (reason: string | null): ToolVerdict => (reason === null ? PASS : refuse(reason));

export const objectSchema: ToolGuard = {
  name: 'object-schema',
  check: ({ inputSchema }) => {
    const type = member(inputSchema, 'type');
    return type?.kind === 'string' && type.value === 'object' ? PASS : refuse('its input schema does not say type: "object"');
  },
};

export const selfContained: ToolGuard = {
  name: 'self-contained',
  check: ({ inputSchema }) => {
    const reference = externalReference(inputSchema);
    return verdict(reference === null ? null : `its input schema is not self-contained: ${reference}`);
  },
};

export const referencesResolve: ToolGuard = {
  name: 'references-resolve',
  check: ({ inputSchema }) => {
    const reference = unresolvedReference(inputSchema);
    return verdict(reference === null ? null : `its input schema has a reference that lands on no schema: ${reference}`);
  },
};

export const hiddenNamesSound: ToolGuard = {
  name: 'hidden-names-sound',
  check: ({ inputSchema, hidden }) => {
    const problem = hidingProblem(inputSchema, hidden);
    return verdict(problem === null ? null : `its parameters cannot be hidden soundly: ${problem}`);
  },
};

export const schemaCompiles: ToolGuard = {
  name: 'schema-compiles',
  check: ({ compiled }) => {
    const result = compiled();
    return result.ok ? PASS : refuse(`its input schema does not compile without the hidden parameters: ${result.error}`);
  },
};
