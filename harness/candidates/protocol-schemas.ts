import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import { packageRoot } from '../paths.js';

/** The JSON Schemas of gauntlet-candidate/2, one per message (docs/adapter-protocol.md). */
export const protocolSchemaDir = join(packageRoot, 'protocol', 'gauntlet-candidate-2');

const PROTOCOL_METHODS = ['hello', 'pin', 'start', 'load_report', 'approve', 'audit', 'audit_lines', 'start_refusal', 'stop'] as const;
export type ProtocolMethod = (typeof PROTOCOL_METHODS)[number];

type Message = 'request' | 'answer' | `${ProtocolMethod}.request` | `${ProtocolMethod}.answer`;

function compileAll(): Map<Message, ValidateFunction> {
  const ajv = new Ajv2020.default({ allErrors: true, strict: true, allowUnionTypes: true });
  const files = readdirSync(protocolSchemaDir).filter((file) => file.endsWith('.schema.json'));
  const schemas = files.map((file) => ({ message: file.replace(/\.schema\.json$/, '') as Message, schema: JSON.parse(readFileSync(join(protocolSchemaDir, file), 'utf8')) as { $id: string } }));
  for (const { schema } of schemas) ajv.addSchema(schema);
  return new Map(schemas.map(({ message, schema }) => [message, ajv.getSchema(schema.$id)!]));
}

let compiled: Map<Message, ValidateFunction> | undefined;

/** Why `value` is not a valid `message` (the schemas' own words), or undefined when it is. */
export function protocolViolation(message: Message, value: unknown): string | undefined {
  compiled ??= compileAll();
  const validate = compiled.get(message);
  if (!validate) throw new Error(`no schema for ${message} in ${protocolSchemaDir}`);
  if (validate(value)) return undefined;
  return (validate.errors ?? []).map((error) => `${error.instancePath || '(the message)'} ${error.message ?? 'is invalid'}`).join('; ');
}
