/**
 * The scenario format, as TypeScript. `scenario.schema.json` is the normative definition; these
 * types describe what the loader hands the runner once a file has passed that schema.
 */

export type Level = 'MUST' | 'SHOULD';
export type Kind = 'attack' | 'control';
export type Effect = 'read_only' | 'local_change' | 'remote_change' | 'destructive';

/** The operator's rule for one tool, in the broker-neutral form every adapter translates. */
export interface ToolRule {
  effect: Effect;
  description?: string;
  allow_hint_mismatch?: boolean;
}

export interface OperatorConfig {
  tools: Record<string, ToolRule>;
  limits?: {
    max_pages?: number;
    max_tools?: number;
  };
}

export interface ServerSpec {
  /** A catalogue id from servers/catalogue.ts. */
  catalogue: string;
  knobs?: Record<string, string | number | boolean>;
}

/** What the agent may observe in answer to a call. `refused` is a tool error or a protocol error. */
export type CallOutcome = 'result' | 'refused' | 'tool-error' | 'protocol-error';

export interface EffectiveHints {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ListExpectation {
  includes?: string[];
  excludes?: string[];
  /** The exact description the agent must see for a tool. */
  descriptions?: Record<string, string>;
  /** Hints as the agent would read them, with MCP's defaults applied to absent ones. */
  effective_hints?: Record<string, EffectiveHints>;
  count?: number;
}

export interface CallExpectation {
  agent: CallOutcome;
  /** How many `tools/call` requests for this tool the server received because of this step. */
  server_received?: number;
}

export interface StartExpectation {
  outcome: 'ready' | 'refused';
  /** How many hostile-server processes may still be alive once the start has been refused. */
  servers_alive?: number;
}

export type Step =
  | { pin: Record<string, never> | null }
  | { phase: 'review' | 'run' }
  | { start: { expect: StartExpectation } }
  | { list: { expect: ListExpectation } }
  | { call: { tool: string; arguments?: Record<string, unknown>; expect: CallExpectation } }
  | { close: Record<string, never> | null };

export interface LedgerExpectation {
  /** The most `tools/list` requests any single server process may receive. */
  list_requests_per_launch_max?: number;
  /** The fewest `tools/list` requests the server must have received in the whole scenario. */
  list_requests_min?: number;
  launches_min?: number;
}

export interface LoadReportExpectation {
  registered?: string[];
  refused?: string[];
  unpinned?: string[];
  unclassified?: string[];
  hint_mismatch_overridden?: string[];
}

export interface ScenarioExpectation {
  ledger?: LedgerExpectation;
  /** Checked only for candidates that declare the `load-report` feature. */
  load_report?: LoadReportExpectation;
}

export interface Scenario {
  id: string;
  title: string;
  requirements: string[];
  level: Level;
  kind: Kind;
  /** For an attack: the id of the benign control that proves the same path works. */
  control?: string;
  features: string[];
  description: string;
  server: ServerSpec;
  operator: OperatorConfig;
  steps: Step[];
  expect?: ScenarioExpectation;
  /** Where the file was loaded from, relative to the package root. */
  file: string;
}
