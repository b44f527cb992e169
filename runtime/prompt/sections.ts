/**
 * Which prompt sections a turn sees (docs/prompt.md), in the spec's order: nearest-owner override
 * first, then `profiles` (by turn kind), then `platforms` (IM turns only). Also the owner of a
 * turn, the layer order and the load-time checks of a generation's sections.
 */
import type { Generation, PromptSectionEntry } from '../generation/generation.js';
import type { ManifestAgent, PromptLayer, PromptProfile } from '../contract/manifest.js';
import { PROMPT_LAYERS } from '../contract/enums.js';

export type SectionHiddenReason = 'overridden' | 'profile' | 'platform' | 'empty';

export interface HiddenSection {
  readonly id: string;
  readonly reason: SectionHiddenReason;
}

export interface SectionFilter {
  /** Owner path of the turn (see `resolveTurnOwner`). */
  readonly owner: string;
  readonly profile: PromptProfile;
  /** The IM adapter of an IM turn; absent for every other turn. */
  readonly platform?: string;
}

export interface SectionSelection {
  readonly visible: readonly PromptSectionEntry[];
  readonly hidden: readonly HiddenSection[];
}

/** Render groups of layers, in order: the layer enumeration is declared in render order (enums.ts). */
export const LAYER_ORDER: readonly PromptLayer[] = PROMPT_LAYERS;

/** `schedule`-origin turns use the `schedule` profile; every other turn is `interactive`. */
export function promptProfileOf(origin: string): PromptProfile {
  return origin === 'schedule' ? 'schedule' : 'interactive';
}

/** `a` is `o` or one of its ancestors (`''` is everybody's ancestor). */
export function isAncestorOrSelf(a: string, o: string): boolean {
  return a === '' || a === o || o.startsWith(`${a}/`);
}

/**
 * The owner of a turn: the selected agent's plugin (an agent belongs to exactly one plugin);
 * without an agent, the owner the host routed the turn to (`beginTurn({ owner })`); else the root.
 */
export function resolveTurnOwner(agent: ManifestAgent | undefined, explicit: string | undefined): string {
  return agent?.owner ?? explicit ?? '';
}

/**
 * beginTurn-time check of `TurnInput.owner`; returns a reason when it must be rejected. It is not
 * compared with the agent: a selected agent (explicit, platform or a fork's) simply wins.
 */
export function checkTurnOwner(generation: Generation, owner: string | undefined): string | undefined {
  if (owner === undefined) return undefined;
  if (typeof owner !== 'string' || !generation.manifest.plugins.some((plugin) => plugin.owner === owner)) {
    return `unknown turn owner "${String(owner)}": not a plugin of generation ${generation.id}`;
  }
  return undefined;
}

/**
 * Nearest-owner override. A section overrides every same-named section of its ancestors, for
 * the turns of its own subtree. So, for a turn owned by `O`, section `S` (owner `A`) is hidden when
 * - a same-named section exists at a proper descendant `B` of `A` with `B` on `O`'s chain
 *   (a nearer override applies to this turn), or
 * - `A` is not on `O`'s chain and a same-named section exists at a proper ancestor of `A`
 *   (`S` is an override meant only for `A`'s subtree).
 * Same-named sections of unrelated plugins (siblings) do not affect each other.
 */
function isOverridden(entry: PromptSectionEntry, sameName: readonly PromptSectionEntry[], owner: string): boolean {
  const a = entry.owner;
  for (const other of sameName) {
    const b = other.owner;
    if (b === a) continue;
    if (isAncestorOrSelf(a, b) && isAncestorOrSelf(b, owner)) return true;
    if (!isAncestorOrSelf(a, owner) && isAncestorOrSelf(b, a)) return true;
  }
  return false;
}

export function selectSections(entries: Iterable<PromptSectionEntry>, filter: SectionFilter): SectionSelection {
  const all = [...entries];
  const byName = new Map<string, PromptSectionEntry[]>();
  for (const entry of all) {
    const group = byName.get(entry.name);
    if (group) group.push(entry);
    else byName.set(entry.name, [entry]);
  }
  const visible: PromptSectionEntry[] = [];
  const hidden: HiddenSection[] = [];
  for (const entry of all) {
    const { section } = entry;
    // The override is decided before profiles and platforms (spec order): a child's section
    // hides the parent's in the child's turns even where the child's own section does not apply.
    let reason: SectionHiddenReason | undefined;
    if (isOverridden(entry, byName.get(entry.name)!, filter.owner)) reason = 'overridden';
    else if (!section.profiles.includes(filter.profile)) reason = 'profile';
    else if (
      section.platforms.length > 0 &&
      (filter.platform === undefined || !section.platforms.includes(filter.platform))
    ) {
      reason = 'platform';
    } else if (section.content === '') reason = 'empty';
    if (reason) hidden.push(Object.freeze({ id: entry.id, reason }));
    else visible.push(entry);
  }
  return { visible: sortSections(visible), hidden: Object.freeze(hidden.sort((x, y) => compareText(x.id, y.id))) };
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A layer outside the known set (a hand-made manifest) renders as the default, `context`. */
export function layerOf(layer: string): PromptLayer {
  return (LAYER_ORDER as readonly string[]).includes(layer) ? (layer as PromptLayer) : 'context';
}

/** Layer (LAYER_ORDER), then `order` descending, then id by code units (deterministic). */
export function sortSections(entries: readonly PromptSectionEntry[]): PromptSectionEntry[] {
  const rank = (layer: string) => LAYER_ORDER.indexOf(layerOf(layer));
  return [...entries].sort(
    (x, y) =>
      rank(x.section.layer) - rank(y.section.layer) || y.section.order - x.section.order || compareText(x.id, y.id),
  );
}

/**
 * Load-time check: a required section longer than its own `maxChars` could never render (the
 * compiler reports it as ZG2031; a hand-made manifest or a `setup()` section must not slip by).
 */
export function checkSectionLimits(generation: Generation): void {
  for (const entry of generation.promptSections.values()) {
    const { section } = entry;
    if (
      section.retention === 'required' &&
      section.maxChars !== undefined &&
      section.content.length > section.maxChars
    ) {
      throw new Error(
        `required prompt section "${entry.id}" has ${section.content.length} characters of content but maxChars is ${section.maxChars}; required content is never cut`,
      );
    }
  }
}
