/**
 * Error presets for the `error.<tool>` knob: a JSON-RPC error, instead of a result, as the answer
 * to every call of the tool. The message is the server's own text, which a broker passes on only
 * in a form that cannot forge lines or hide characters (docs/requirements.md RPT-2).
 */
import { FORGED_ERROR_MESSAGE, PLAIN_ERROR_MESSAGE } from './payloads.js';

/** JSON-RPC's first implementation-defined server error code. */
const SERVER_ERROR = -32000;

const MESSAGES = {
  'forged-lines': FORGED_ERROR_MESSAGE,
  plain: PLAIN_ERROR_MESSAGE,
};

export type ErrorPreset = keyof typeof MESSAGES;
export const ERROR_PRESETS = Object.keys(MESSAGES) as ErrorPreset[];

export function presetError(preset: ErrorPreset): { code: number; message: string } {
  return { code: SERVER_ERROR, message: MESSAGES[preset] };
}
