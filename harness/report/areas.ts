import type { Requirement } from '../requirements.js';
import type { CaseResult } from '../run/outcome.js';
import { held, heldByAdapter, judged } from './summary.js';

/**
 * Cases scored by protection area: the requirement families of docs/requirements.md (its `##`
 * headings). The one grouping the README's broker table, report.md, report.html and the index
 * share, so that none of them can count an area differently.
 */

/** Cases scored the way the headline is: attacks held of attacks judged, controls passed of controls judged. */
export interface Tally {
  attacks_held: number;
  /** Of attacks_held, those held by a protection the adapter provides itself, not the broker. */
  attacks_held_by_adapter: number;
  attacks_run: number;
  controls_passed: number;
  controls_run: number;
  /** Attacks that got through (failure `exposed`). */
  exposed: number;
}

export function tally(cases: readonly CaseResult[]): Tally {
  const attacks = cases.filter((c) => c.kind === 'attack' && judged(c));
  const controls = cases.filter((c) => c.kind === 'control' && judged(c));
  return {
    attacks_held: attacks.filter(held).length,
    attacks_held_by_adapter: attacks.filter(heldByAdapter).length,
    attacks_run: attacks.length,
    controls_passed: controls.filter((c) => c.outcome === 'pass').length,
    controls_run: controls.length,
    exposed: attacks.filter((c) => c.failure === 'exposed').length,
  };
}

/**
 * "held of run" in words, naming the share the adapter holds by its own protections when there is
 * one: the broker is credited with the rest only.
 */
export function heldOf(score: { attacks_held: number; attacks_run: number; attacks_held_by_adapter?: number }): string {
  const byAdapter = score.attacks_held_by_adapter ?? 0;
  return `${score.attacks_held} of ${score.attacks_run}${byAdapter > 0 ? ` (${byAdapter} held by the adapter, not the broker)` : ''}`;
}

/** One requirement family: "Network (NET)" is { id: 'NET', name: 'Network' }. */
export interface Area {
  id: string;
  name: string;
}

/** Where a case citing no requirement of the document is counted. */
export const UNLISTED: Area = { id: 'OTHER', name: 'no requirement of docs/requirements.md' };

/** The area a requirement is listed under. */
export function areaOf(requirement: Requirement): Area {
  const match = /^(.*?)\s*\(([A-Z]+)\)\s*$/.exec(requirement.area);
  if (match) return { id: match[2]!, name: match[1]! };
  // A heading without its id prefix: the requirement ids' prefix stands in.
  return { id: requirement.id.replace(/-\d+$/, ''), name: requirement.area };
}

/** Every area of the document, in its order. */
export function areasOf(requirements: readonly Requirement[]): Area[] {
  const areas = new Map<string, Area>();
  for (const requirement of requirements) {
    const area = areaOf(requirement);
    if (!areas.has(area.id)) areas.set(area.id, area);
  }
  return [...areas.values()];
}

/** Each requirement's area, by requirement id. */
const areaIndex = (requirements: readonly Requirement[]): Map<string, Area> => new Map(requirements.map((requirement) => [requirement.id, areaOf(requirement)]));

function citedAreas(c: Pick<CaseResult, 'requirements'>, index: ReadonlyMap<string, Area>): Area[] {
  const areas = new Map<string, Area>();
  for (const id of c.requirements) {
    const area = index.get(id);
    if (area !== undefined) areas.set(area.id, area);
  }
  return areas.size === 0 ? [UNLISTED] : [...areas.values()];
}

/** The areas a case belongs to: those of the requirements it cites, each once; UNLISTED if it cites none the document has. */
export const caseAreas = (c: Pick<CaseResult, 'requirements'>, requirements: readonly Requirement[]): Area[] => citedAreas(c, areaIndex(requirements));

/** Each area with the cases in it (a case in every area it cites), in the document's order; areas without a case left out. */
export function casesByArea(cases: readonly CaseResult[], requirements: readonly Requirement[]): Array<{ area: Area; cases: CaseResult[] }> {
  const index = areaIndex(requirements);
  const groups = new Map<string, { area: Area; cases: CaseResult[] }>([...areasOf(requirements), UNLISTED].map((area) => [area.id, { area, cases: [] }]));
  for (const c of cases) for (const area of citedAreas(c, index)) groups.get(area.id)?.cases.push(c);
  return [...groups.values()].filter((group) => group.cases.length > 0);
}

/**
 * How an area's attacks fared, for colouring: `held` every attack run held, `exposed` at least one
 * got through, `partial` some not held otherwise (over-blocked, nonconformant, error), `none` no
 * attack judged.
 */
export function areaStanding(score: Tally): 'held' | 'exposed' | 'partial' | 'none' {
  if (score.attacks_run === 0) return 'none';
  if (score.exposed > 0) return 'exposed';
  return score.attacks_held === score.attacks_run ? 'held' : 'partial';
}
