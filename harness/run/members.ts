import type { NamedUpstream, UpstreamCommand } from '../candidates/types.js';
import type { Canary } from '../observe/canary.js';
import type { Ledger } from '../observe/ledger.js';
import { serverEntry } from '../paths.js';
import type { Scenario, ServerOperator } from '../scenario/types.js';
import { HttpServer } from './http-server.js';

/**
 * The command line that starts a hostile server with the scenario's ledger and phase file, its
 * knobs, and, for one of several servers, the scenario's name for it (`--as`), which its ledger
 * records carry. `canary` names the port its outside references reach, when the run has one (a
 * benchmark has none).
 */
export function kitCommand(catalogue: string, knobs: ServerKnobs, ledger: string, control: string, canary: Canary | undefined, as?: string): UpstreamCommand {
  const assignments = Object.entries(knobs).map(([knob, value]) => `${knob}=${String(value)}`);
  return {
    id: (as ?? catalogue).replace(/[^a-z0-9_]/g, '_'),
    command: process.execPath,
    args: [serverEntry, catalogue, '--ledger', ledger, '--control', control, ...(as === undefined ? [] : ['--as', as]), ...(canary === undefined ? [] : [`canary_port=${canary.port}`]), ...assignments],
  };
}

type ServerKnobs = Record<string, string | number | boolean>;

/** `{port}` is the server's port, `{canary_port}` the canary's (docs/scenario-format.md). */
export const fillPorts = (text: string, port: number, canary: Canary): string => text.replaceAll('{port}', String(port)).replaceAll('{canary_port}', String(canary.port));

/** Where an HTTP server is named when the operator does not say: the harness's own listener. */
export const DEFAULT_SERVER_URL = 'http://127.0.0.1:{port}/mcp';

/** The servers of a scenario naming several, as the candidate is given them, and the HTTP ones the harness runs. */
export interface Members {
  readonly servers: NamedUpstream[];
  readonly http: readonly HttpServer[];
}

/**
 * Every server of a scenario naming several: one the candidate starts is a command line; one
 * reached by URL the harness starts on 127.0.0.1, and the operator's URL and opt-in name its port.
 * All write the scenario's one ledger and read its one phase file. On failure none is left running.
 */
export async function startMembers(scenario: Scenario, ledger: Ledger, control: string, canary: Canary, timeoutMs: number): Promise<Members> {
  const servers: NamedUpstream[] = [];
  const http: HttpServer[] = [];
  try {
    for (const [name, server] of Object.entries(scenario.servers ?? {})) {
      const command = kitCommand(server.catalogue, server.knobs ?? {}, ledger.path, control, canary, name);
      const operator: ServerOperator = scenario.operator.servers?.[name] ?? { tools: {} };
      if (server.transport !== 'http') {
        servers.push({ name, upstream: command, operator });
        continue;
      }
      const running = await HttpServer.start(command, ledger, timeoutMs, ['127.0.0.1'], undefined);
      http.push(running);
      const fill = (text: string) => fillPorts(text, running.port, canary);
      const origin = operator.allow_private_origin;
      servers.push({
        name,
        upstream: { id: command.id, url: fill(operator.server_url ?? DEFAULT_SERVER_URL) },
        operator: { ...operator, ...(origin === undefined ? {} : { allow_private_origin: fill(origin) }) },
      });
    }
    return { servers, http };
  } catch (error) {
    await Promise.all(http.map((running) => running.stop()));
    throw error;
  }
}
