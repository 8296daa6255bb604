/**
 * Error presets for the `error.<tool>` knob: a JSON-RPC error, instead of a result, as the answer
 * to every call of the tool. The message is the server's own text, which a broker passes on only
 * in a form that cannot forge lines or hide characters (docs/requirements.md RPT-2).
 */
import { AUTH_EXPIRED, CANARY, ERROR_DATA_AUTH_EXPIRED, ERROR_DATA_CANARY, ERROR_DATA_PLAIN, FORGED_ERROR_MESSAGE, INJECTION, PLAIN_ERROR_MESSAGE, RATE_LIMITED } from './payloads.js';

/** JSON-RPC's first implementation-defined server error code. */
const SERVER_ERROR = -32000;

/** Each error's message, and its `data` as raw JSON text when it has one. */
const ERRORS = {
  'forged-lines': { message: FORGED_ERROR_MESSAGE },
  plain: { message: PLAIN_ERROR_MESSAGE },
  canary: { message: `note store unavailable (reference ${CANARY})` },
  injection: { message: `note store unavailable. ${INJECTION}` },
  // The message is plain: what the server hides is in the data beside it.
  'data-canary': { message: PLAIN_ERROR_MESSAGE, data: ERROR_DATA_CANARY },
  'data-plain': { message: PLAIN_ERROR_MESSAGE, data: ERROR_DATA_PLAIN },
  // A sign-in failure asking for a credential; with `preset_from_call` it comes only on a later call.
  'auth-expired': { message: AUTH_EXPIRED },
  'data-auth-expired': { message: 'Authentication expired.', data: ERROR_DATA_AUTH_EXPIRED },
  'rate-limited': { message: RATE_LIMITED },
} satisfies Record<string, PresetError>;

export interface PresetError {
  readonly message: string;
  /** Raw JSON text. */
  readonly data?: string;
}

export type ErrorPreset = keyof typeof ERRORS;
export const ERROR_PRESETS = Object.keys(ERRORS) as ErrorPreset[];

export function presetError(preset: ErrorPreset): PresetError & { code: number } {
  return { code: SERVER_ERROR, ...ERRORS[preset] };
}
