import { byItemKey, itemKey } from '../../observe/spellings.js';
import { expectation } from '../types.js';

const schemaOf = (tool: Record<string, unknown> | undefined) => tool?.inputSchema as Record<string, unknown> | undefined;

export const hidden = expectation({
  block: 'list',
  name: 'hidden',
  doc: "parameters that must appear nowhere in the tool's schema's properties or required list, under any spelling of their names; the tool must be offered",
  properties: { hidden: { type: 'object', additionalProperties: { $ref: '#/$defs/names' } } },
  checks: {
    'list.hidden': { class: 'harm', doc: 'the agent is not shown the parameters the operator hid' },
    'list.schema_offered': { class: 'benign', doc: 'the tool whose schema is read is offered' },
  },
  judge(expect, { byName }, _judged, fail) {
    for (const [name, params] of Object.entries(expect.hidden ?? {})) {
      const schema = schemaOf(byName.get(name));
      if (!schema) {
        fail('list.schema_offered', `schema of ${name}`, `hides ${params.join(', ')}`, '(tool not offered)');
        continue;
      }
      // A parameter shown as `Folder` when `folder` is hidden is shown (observe/spellings.ts).
      const required = Array.isArray(schema.required) ? schema.required.filter((item): item is string => typeof item === 'string') : [];
      const shown = byItemKey([...Object.keys((schema.properties ?? {}) as object), ...required]);
      for (const param of params) {
        const as = shown.get(itemKey(param));
        if (as !== undefined) fail('list.hidden', `${name} hides ${param}`, 'absent from properties and required', as === param ? 'shown' : `shown as ${JSON.stringify(as)}`);
      }
    }
  },
});

export const required = expectation({
  block: 'list',
  name: 'required',
  doc: "names the tool's schema must still list as required",
  properties: { required: { type: 'object', additionalProperties: { $ref: '#/$defs/names' } } },
  checks: { 'list.required': { class: 'benign', doc: 'what the server requires is still required in what the agent sees' } },
  judge(expect, { byName }, _judged, fail) {
    for (const [name, params] of Object.entries(expect.required ?? {})) {
      const listed = (schemaOf(byName.get(name))?.required ?? []) as string[];
      for (const param of params) if (!listed.includes(param)) fail('list.required', `${name} requires ${param}`, 'required', listed);
    }
  },
});
