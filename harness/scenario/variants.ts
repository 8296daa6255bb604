/**
 * Variant axes: one scenario file run as several cases that differ along a named axis, written as
 * `variants: { <axis>: [<value>, ...] }` (docs/scenario-format.md). The loader expands a file into
 * one case per combination of the values it lists, so that everything after the load (filters,
 * controls, baselines, reports, `gauntlet list`) sees ordinary cases with ids of their own, and no
 * YAML is copied to run the same attack another way.
 *
 * A case's id is the file's id, followed by `.<value>` for each axis, in the order of AXES, whose
 * value is not that axis's base: the base case keeps the file's id, so the ids a report or
 * baseline already holds stay the same cases. An attack's case is paired with the case of its
 * control that has the same values (`net.private-address.https` with `net.private-opted-in.https`),
 * which must exist: an attack over https proves nothing beside a control over http.
 */
import { BASE_REVISION, REVISIONS, type Revision } from '../agent/revisions.js';
import type { OperatorConfig, Scenario, ServerOperator, ServerSpec } from './types.js';

/** A scenario as the schema admits it, before expansion: its axes and revisions, and no values chosen yet. */
export type ScenarioFile = Omit<Scenario, 'file' | 'variant' | 'revision'> & { variants?: Record<string, string[]>; revisions?: Revision[] };

/** A scenario file expanded for one combination of values, still without its `file`. */
export type ScenarioCase = Omit<Scenario, 'file'>;

interface Axis {
  readonly name: string;
  /** Every value the axis takes; the schema admits only these. */
  readonly values: readonly string[];
  /** The values a file runs along, or undefined when it does not run along the axis. */
  readonly chosen: (file: ScenarioFile) => readonly string[] | undefined;
  /** The value whose case keeps the file's own id. */
  readonly base: string;
  /** What the case says of itself, after its title. */
  readonly title: (value: string) => string;
  /** What is wrong with the file for this axis, or undefined. */
  readonly problem: (file: ScenarioFile) => string | undefined;
  /** The case for `value`: the file with the axis's placeholders and effects applied. */
  readonly apply: (file: ScenarioFile, value: string) => ScenarioFile;
}

/** The operator's URL and opt-in of each server, where a placeholder may stand. */
const URL_FIELDS = ['server_url', 'allow_private_origin'] as const;

/** Every part of the operator's configuration that names a server by URL: the top level, or each server's block. */
const operatorParts = (operator: OperatorConfig): Array<OperatorConfig | ServerOperator> => [operator, ...Object.values(operator.servers ?? {})];

/** The operator's configuration with `{name}` replaced by `value` in each URL field. */
function fillOperator(operator: OperatorConfig, name: string, value: string): OperatorConfig {
  const fill = <T extends OperatorConfig | ServerOperator>(part: T): T => {
    const filled = { ...part };
    for (const field of URL_FIELDS) if (filled[field] !== undefined) filled[field] = filled[field].replaceAll(`{${name}}`, value);
    return filled;
  };
  const servers = operator.servers === undefined ? undefined : Object.fromEntries(Object.entries(operator.servers).map(([server, part]) => [server, fill(part)]));
  return { ...fill(operator), ...(servers === undefined ? {} : { servers }) };
}

/** The file's servers by name: its one `server`, or each of its `servers`. */
const serversOf = (file: ScenarioFile): Record<string, ServerSpec> => file.servers ?? { server: file.server };

/**
 * `scheme`: the same case over plain HTTP and over HTTPS. Over https every HTTP server of the
 * scenario serves TLS (the kit's `http_tls`, with a certificate for every address and name the
 * catalogue serves, from an authority the harness has the operator trust), and `{scheme}` in the
 * operator's URL and opt-in is `https`. A broker that refuses plain http is then judged on what it
 * does with the address, not spared by the scheme; nor is an https-only broker scored over-blocked
 * on a control it cannot reach over http alone, since the control runs over https too.
 */
const scheme: Axis = {
  name: 'scheme',
  values: ['http', 'https'],
  chosen: (file) => file.variants?.scheme,
  base: 'http',
  title: (value) => ` (over ${value})`,
  problem(file) {
    const servers = Object.entries(serversOf(file));
    const stdio = servers.find(([, server]) => server.transport !== 'http');
    if (stdio !== undefined) return `variants.scheme needs every server reached over http, and ${stdio[0]} is not`;
    if (servers.some(([, server]) => server.knobs?.http_tls !== undefined)) return 'variants.scheme sets http_tls itself: a server of the file may not';
    // Every server is named by a URL that follows the case's scheme, or one case would not be what its id says.
    const unnamed = operatorParts(file.operator).filter((part) => part !== file.operator || file.servers === undefined).find((part) => !part.server_url?.startsWith('{scheme}://'));
    if (unnamed !== undefined) return 'variants.scheme needs each server_url to begin with {scheme}://';
    return undefined;
  },
  apply(file, value) {
    const tls = (server: ServerSpec): ServerSpec => (value === 'https' ? { ...server, knobs: { ...server.knobs, http_tls: 1 } } : server);
    const servers = file.servers === undefined ? undefined : Object.fromEntries(Object.entries(file.servers).map(([name, server]) => [name, tls(server)]));
    return { ...file, server: file.server === undefined ? file.server : tls(file.server), ...(servers === undefined ? {} : { servers }), operator: fillOperator(file.operator, 'scheme', value) };
  },
};

/** The kit knob that names the revisions a kit server speaks (default 2025-11-25, the base). */
export const REVISIONS_KNOB = 'revisions';

/**
 * The knobs that make a kit server speak `revision`: none for the base revision, which every kit
 * server speaks unless told, so a 2025-11-25 case starts its servers exactly as before.
 */
export const revisionKnobs = (revision: Revision): Record<string, string> => (revision === BASE_REVISION ? {} : { [REVISIONS_KNOB]: revision });

/**
 * `revision`: the MCP revision a case speaks end to end, the agent to the broker and every kit
 * server of the case (docs/scenario-format.md). Every file runs under every revision unless it
 * says `revisions: [<one>]`, as a file that depends on something a revision removed does.
 */
const revision: Axis = {
  name: 'revision',
  values: REVISIONS,
  chosen: (file) => file.revisions ?? REVISIONS,
  base: BASE_REVISION,
  title: (value) => (value === BASE_REVISION ? '' : ` (MCP ${value})`),
  problem(file) {
    const own = Object.entries(serversOf(file)).find(([, server]) => server.knobs?.[REVISIONS_KNOB] !== undefined);
    return own === undefined ? undefined : `${own[0]} sets the ${REVISIONS_KNOB} knob, which the case's revision sets: list the file's revisions instead`;
  },
  apply(file, value) {
    const speaks = (server: ServerSpec): ServerSpec => (value === BASE_REVISION ? server : { ...server, knobs: { ...server.knobs, ...revisionKnobs(value as Revision) } });
    const servers = file.servers === undefined ? undefined : Object.fromEntries(Object.entries(file.servers).map(([name, server]) => [name, speaks(server)]));
    return { ...file, server: file.server === undefined ? file.server : speaks(file.server), ...(servers === undefined ? {} : { servers }) };
  },
};

/** Every axis, in the order a case's id names them. */
export const AXES: readonly Axis[] = [scheme, revision];

/** The axes a file lists under `variants`; the others have fields of their own. */
const VARIANT_AXES: readonly Axis[] = [scheme];

/** The schema of `variants`: each axis by name, a list of its values (expect/generate.ts puts it in the scenario schema). */
export function variantsSchema(): Record<string, unknown> {
  return {
    description: 'Axes to run the scenario along, each with the values to run it with: one case per combination, the axis\'s base value keeping the file\'s id (docs/scenario-format.md)',
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    properties: Object.fromEntries(VARIANT_AXES.map((axis) => [axis.name, { type: 'array', minItems: 2, uniqueItems: true, items: { enum: [...axis.values] } }])),
  };
}

/** The schema of `revisions` (expect/generate.ts puts it in the scenario schema). */
export function revisionsSchema(): Record<string, unknown> {
  return {
    description: `The MCP revisions the scenario runs under, each a case of its own (default: all, ${REVISIONS.join(' and ')}); a file that depends on something a revision removed lists the one it needs (docs/scenario-format.md)`,
    type: 'array',
    minItems: 1,
    uniqueItems: true,
    items: { enum: [...REVISIONS] },
  };
}

/** The id suffix of a combination: `.<value>` for each axis not at its base, in AXES order. */
function suffixOf(variant: Readonly<Record<string, string>>): string {
  return AXES.flatMap((axis) => (variant[axis.name] === undefined || variant[axis.name] === axis.base ? [] : [`.${variant[axis.name]}`])).join('');
}

/** The id of the case of scenario `id` for `variant` (the control an attack's case is paired with, too). */
export const caseId = (id: string, variant: Readonly<Record<string, string>>): string => `${id}${suffixOf(variant)}`;

/** Every combination of the values the file runs along, the first axis's values outermost, in file order. */
function combinations(file: ScenarioFile): Array<Record<string, string>> {
  return AXES.reduce<Array<Record<string, string>>>((partial, axis) => {
    const values = axis.chosen(file);
    return values === undefined ? partial : partial.flatMap((chosen) => values.map((value) => ({ ...chosen, [axis.name]: value })));
  }, [{}]);
}

/** A placeholder of an axis the file does not list, left in a URL field: what no case could dial. */
function strayPlaceholder(file: ScenarioFile): string | undefined {
  const listed = new Set(Object.keys(file.variants ?? {}));
  for (const part of operatorParts(file.operator)) {
    for (const field of URL_FIELDS) {
      const stray = AXES.find((axis) => !listed.has(axis.name) && part[field]?.includes(`{${axis.name}}`));
      if (stray !== undefined) return `${field} names {${stray.name}}, and variants lists no ${stray.name}`;
    }
  }
  return undefined;
}

/**
 * The cases of one scenario file: one per combination of the values it runs along (its revisions,
 * and the axes it lists under `variants`), each with its id, control, title and revision made for
 * its values; `variant` holds the values of the axes listed under `variants`, and is absent when
 * it lists none. Returns what is wrong with the file instead, when an axis cannot apply to it.
 */
export function expandVariants(file: ScenarioFile): ScenarioCase[] | string {
  const stray = strayPlaceholder(file);
  if (stray !== undefined) return stray;
  for (const axis of AXES) {
    if (axis.chosen(file) === undefined) continue;
    const problem = axis.problem(file);
    if (problem !== undefined) return problem;
  }
  const { variants, revisions: _revisions, ...rest } = file;
  return combinations(file).map((values) => {
    const applied = AXES.reduce((shaped, axis) => (values[axis.name] === undefined ? shaped : axis.apply(shaped, values[axis.name]!)), rest as ScenarioFile);
    const titled = AXES.map((axis) => (values[axis.name] === undefined ? '' : axis.title(values[axis.name]!))).join('');
    const variant = Object.fromEntries(VARIANT_AXES.flatMap((axis) => (values[axis.name] === undefined ? [] : [[axis.name, values[axis.name]!]])));
    const { revisions: _none, ...shaped } = applied;
    return {
      ...shaped,
      id: caseId(file.id, values),
      title: `${file.title}${titled}`,
      ...(file.control === undefined ? {} : { control: caseId(file.control, values) }),
      revision: values.revision as Revision,
      ...(variants === undefined ? {} : { variant }),
    };
  });
}
