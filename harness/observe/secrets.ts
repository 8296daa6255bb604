import { stringsOfLine } from './strings.js';
import type { OperatorConfig } from '../scenario/types.js';

/** A secret shorter than this could occur in ordinary text by chance: every scenario's are long random tokens. */
const MIN_SECRET_CHARS = 12;

/** Variable names that say their value is a credential the operator lends a server. */
const CREDENTIAL_NAME = /TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|CREDENTIAL/i;

/**
 * The secrets a scenario's operator hands the broker: the tokens it holds for HTTP hosts, one
 * written into a server's entry, and the credentials it lends a server in its environment (named
 * as such, written literally: a `$REFERENCE` is no value). None of them is the agent's to see.
 */
export function operatorSecrets(operator: OperatorConfig): string[] {
  const envs = [operator.env ?? {}, ...Object.values(operator.servers ?? {}).map((server) => server.env ?? {})];
  const lent = envs.flatMap((env) => Object.entries(env).filter(([name, value]) => CREDENTIAL_NAME.test(name) && !value.includes('$')).map(([, value]) => value));
  const all = [...Object.values(operator.credentials ?? {}), ...(operator.config_token === undefined ? [] : [operator.config_token]), ...lent];
  return [...new Set(all)].filter((secret) => secret.length >= MIN_SECRET_CHARS);
}

/** Where a secret reached the agent: the step running, and the line's string that held it, cut short. */
export interface SecretSighting {
  secret: string;
  step: string;
  holder: string;
}

/**
 * Watches every line that reaches the agent (answers, errors, refusal reasons, notifications,
 * the broker's own requests, a front door's response bodies), and the reason a broker gives for
 * refusing to start, which the operator reads and pastes on, for the operator's secrets, as it
 * arrives: nothing is kept but the first sighting of each, so a flood costs no memory. A line is
 * searched raw and decoded, so an escape in the JSON hides nothing.
 */
export class SecretWatch {
  private readonly seen = new Map<string, SecretSighting>();

  constructor(readonly secrets: readonly string[]) {}

  /** `where`, when given, names what held the line in the report (a text the broker gave outside the agent's channel). */
  see(line: string, step: string, where?: string): void {
    for (const secret of this.secrets) {
      if (this.seen.has(secret)) continue;
      const holder = line.includes(secret) ? line : stringsOfLine(line).find((text) => text.includes(secret));
      if (holder !== undefined) this.seen.set(secret, { secret, step, holder: `${where === undefined ? '' : `${where}: `}${excerpt(holder, secret)}` });
    }
  }

  get sightings(): SecretSighting[] {
    return [...this.seen.values()];
  }
}

/** The text around the secret, for a report: enough to see what carried it. */
function excerpt(text: string, secret: string): string {
  const at = text.indexOf(secret);
  const from = Math.max(0, at - 80);
  return `${from > 0 ? '…' : ''}${text.slice(from, at + secret.length + 80)}${at + secret.length + 80 < text.length ? '…' : ''}`;
}
