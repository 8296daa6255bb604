// The shapes of the broker's guards. Each guard is one named protection; the registry collects
// them so that `--disable-guard NAME` removes exactly one, and the suite can show each is needed.

import type { Effect, Limits, Rule } from '../config.js';
import type { JsonObject } from '../json/tree.js';
import type { ListedTool, ListingPage } from '../listing.js';
import type { PinnedTool } from '../manifest.js';

/** Refuses the whole listing: sees every page in turn and returns a reason, or null. */
export interface ListingGuard {
  readonly name: string;
  /** Starts one listing; the returned check keeps whatever state the guard needs across pages. */
  begin(limits: Limits): (page: ListingPage) => string | null;
}

/** Everything Load knows about one tool name: at least one of `live` and `pin` is set. */
export interface ToolSubject {
  readonly name: string;
  readonly live: ListedTool | undefined;
  readonly pin: PinnedTool | undefined;
  readonly rule: Rule | undefined;
}

export type ToolVerdict =
  | { readonly kind: 'pass' }
  | { readonly kind: 'refuse'; readonly reason: string }
  /** Passes because the operator's rule allows it; the note goes into the load report. */
  | { readonly kind: 'overridden'; readonly note: string };

/** Decides on one tool at Load. */
export interface ToolGuard {
  readonly name: string;
  check(subject: ToolSubject): ToolVerdict;
}

/** What the agent is shown for one registered tool. */
export interface Presentation {
  readonly description: string | undefined;
  readonly inputSchema: JsonObject;
  readonly annotations: JsonObject | undefined;
}

/** Replaces part of what the agent sees with what the operator decided. */
export interface PresentationGuard {
  readonly name: string;
  present(shown: Presentation, effect: Effect | undefined, rule: Rule | undefined): Presentation;
}

/** Decides whether an agent's call may be forwarded; returns a reason to refuse, or null. */
export interface CallGuard {
  readonly name: string;
  check(tool: string, registered: ReadonlySet<string>): string | null;
}

/** Decides whether the broker may serve at all once Load is done; a reason to stop, or null. */
export interface ServeGuard {
  readonly name: string;
  check(registeredCount: number): string | null;
}
