/**
 * The system-prompt budget algorithm (docs/prompt.md), pure: ordered parts and a budget in, text and a
 * per-part report out. Which parts exist and in which order is decided by the caller
 * (`system-prompt.ts`); this file only decides how much of each part survives.
 *
 * Characters are UTF-16 code units (`String.length`), the unit `maxChars` and
 * `systemPromptMaxChars` are specified in; a cut never splits a surrogate pair. Required text
 * is never cut: it either fits whole or assembly throws `PromptBudgetError`.
 */
import type { PromptRetention } from '../contract/manifest.js';

// The separator and the default budget live with the contract (the compiler reads them too).
export { DEFAULT_SYSTEM_PROMPT_MAX_CHARS, PROMPT_SEPARATOR } from '../contract/enums.js';
import { PROMPT_SEPARATOR } from '../contract/enums.js';
/** Appended to every truncated content; counts against `maxChars` and the budget. */
export const TRUNCATION_MARKER = '\n[truncated]';
/** Over the total budget, a part that would keep fewer content characters is dropped instead. */
export const MIN_KEPT_CHARS = 64;

export type PromptPartKind =
  | 'agents-md'
  | 'agent-system'
  | 'agent-boundaries'
  | 'agent-conventions'
  | 'skill'
  | 'section';

export interface PromptPart {
  readonly kind: PromptPartKind;
  /** Section id (`owner:name`), skill or agent qualifiedName, or the owner path for AGENTS.md. */
  readonly id: string;
  readonly owner: string;
  readonly retention: PromptRetention;
  /** Rendered as `## <heading>` and a blank line before the content (prompt sections: the title). */
  readonly heading?: string;
  readonly content: string;
  /** Limit on the content alone (not the heading), marker included. */
  readonly maxChars?: number;
  /** Yield position within its tier: lower yields first (a section's `order`). */
  readonly order: number;
}

export type PromptPartStatus = 'full' | 'truncated' | 'dropped';

export interface PromptPartReport {
  readonly kind: PromptPartKind;
  readonly id: string;
  readonly owner: string;
  readonly retention: PromptRetention;
  readonly status: PromptPartStatus;
  /** What cut the part last: its own `maxChars`, or the total budget. Absent when `full`. */
  readonly reason?: 'maxChars' | 'budget';
  /** Rendered block length (heading and marker included, separators excluded); 0 when dropped. */
  readonly chars: number;
  /** Length of the original content. */
  readonly contentChars: number;
  /** Content characters that survived (0 when dropped). */
  readonly keptChars: number;
}

export interface AssembledPrompt {
  readonly text: string;
  /** `text.length`. */
  readonly chars: number;
  readonly budget: number;
  /** One entry per input part, in render order. */
  readonly parts: readonly PromptPartReport[];
}

export type PromptBudgetFailure = 'section-max-chars' | 'over-budget';

export interface PromptBudgetErrorPart {
  readonly kind: PromptPartKind;
  readonly id: string;
  readonly owner: string;
  /** Rendered block length of the required part. */
  readonly chars: number;
}

/** Required text cannot fit: the turn must fail before any model call (never a silent cut). */
export class PromptBudgetError extends Error {
  override readonly name = 'PromptBudgetError';
  constructor(
    readonly code: PromptBudgetFailure,
    /** The limit that was exceeded: the section's `maxChars` or `systemPromptMaxChars`. */
    readonly limit: number,
    /** Characters the required content needs (content for a section, whole prompt for the total). */
    readonly requiredChars: number,
    readonly parts: readonly PromptBudgetErrorPart[],
    message: string,
  ) {
    super(message);
  }
}

export function describePromptPart(part: Pick<PromptPart, 'kind' | 'id' | 'owner'>): string {
  const plugin = part.owner === '' ? 'root plugin' : `plugin "${part.owner}"`;
  switch (part.kind) {
    case 'agents-md':
      return `AGENTS.md of ${plugin}`;
    case 'agent-system':
      return `system.md of agent "${part.id}"`;
    case 'agent-boundaries':
      return `boundaries.md of agent "${part.id}"`;
    case 'agent-conventions':
      return `conventions.md of agent "${part.id}"`;
    case 'skill':
      return `skill "${part.id}"`;
    case 'section':
      return `prompt section "${part.id}"`;
  }
}

interface PartState {
  readonly part: PromptPart;
  readonly index: number;
  readonly headingChars: number;
  kept: number;
  truncated: boolean;
  dropped: boolean;
  reason?: 'maxChars' | 'budget';
}

const RETENTION_YIELD: Readonly<Record<PromptRetention, number>> = { opportunistic: 0, preferred: 1, required: 2 };

function headingText(heading: string | undefined): string {
  return heading === undefined ? '' : `## ${heading}${PROMPT_SEPARATOR}`;
}

function blockChars(state: PartState): number {
  if (state.dropped) return 0;
  return state.headingChars + state.kept + (state.truncated ? TRUNCATION_MARKER.length : 0);
}

function totalChars(states: readonly PartState[]): number {
  let total = 0;
  let blocks = 0;
  for (const state of states) {
    if (state.dropped) continue;
    total += blockChars(state);
    blocks += 1;
  }
  return blocks === 0 ? 0 : total + (blocks - 1) * PROMPT_SEPARATOR.length;
}

/** Largest cut ≤ `keep` that does not separate a surrogate pair. */
function safeCut(content: string, keep: number): number {
  if (keep <= 0 || keep >= content.length) return Math.max(0, Math.min(keep, content.length));
  const last = content.charCodeAt(keep - 1);
  return last >= 0xd800 && last <= 0xdbff ? keep - 1 : keep;
}

/**
 * Yield order over the total budget: opportunistic before preferred; within preferred, prompt
 * sections before skill instructions (a loaded skill was asked for by the model in this session);
 * then lower `order` first; ties yield the part rendered later first.
 */
function compareYield(a: PartState, b: PartState): number {
  return (
    RETENTION_YIELD[a.part.retention] - RETENTION_YIELD[b.part.retention] ||
    Number(a.part.kind === 'skill') - Number(b.part.kind === 'skill') ||
    a.part.order - b.part.order ||
    b.index - a.index
  );
}

function applyMaxChars(state: PartState): void {
  const { part } = state;
  if (part.maxChars === undefined || part.content.length <= part.maxChars) return;
  if (part.retention === 'required') {
    throw new PromptBudgetError(
      'section-max-chars',
      part.maxChars,
      part.content.length,
      [{ kind: part.kind, id: part.id, owner: part.owner, chars: state.headingChars + part.content.length }],
      `${describePromptPart(part)} is required and has ${part.content.length} characters of content, but its maxChars is ${part.maxChars}; required content is never cut`,
    );
  }
  // The author's own limit: keep whatever fits beside the marker (no minimum, unlike the budget).
  const keep = safeCut(part.content, part.maxChars - TRUNCATION_MARKER.length);
  state.reason = 'maxChars';
  if (keep <= 0) state.dropped = true;
  else {
    state.kept = keep;
    state.truncated = true;
  }
}

function checkRequired(states: readonly PartState[], budget: number): void {
  const required = states.filter((state) => state.part.retention === 'required' && !state.dropped);
  const needed = totalChars(required);
  if (needed <= budget) return;
  const parts = required.map((state) => ({
    kind: state.part.kind,
    id: state.part.id,
    owner: state.part.owner,
    chars: blockChars(state),
  }));
  const listed = parts.map((part) => `${describePromptPart(part)} ${part.chars}`).join(', ');
  throw new PromptBudgetError(
    'over-budget',
    budget,
    needed,
    parts,
    `system prompt over budget: required content needs ${needed} characters (separators included) but systemPromptMaxChars is ${budget}; required parts: ${listed}`,
  );
}

/** Truncates or drops yielding parts, in yield order, until the prompt fits. */
function fitBudget(states: readonly PartState[], budget: number): void {
  const yielders = states.filter((state) => state.part.retention !== 'required' && !state.dropped).sort(compareYield);
  // A running total (totalChars once): recounting every part per yielding part was quadratic,
  // 10,000 sections took a quarter of a second on every systemPrompt().
  let blocks = 0;
  for (const state of states) if (!state.dropped) blocks += 1;
  let chars = totalChars(states);
  for (const state of yielders) {
    const excess = chars - budget;
    if (excess <= 0) return;
    const before = blockChars(state);
    const keep = safeCut(state.part.content, before - excess - state.headingChars - TRUNCATION_MARKER.length);
    state.reason = 'budget';
    if (keep >= MIN_KEPT_CHARS) {
      state.kept = keep;
      state.truncated = true;
      chars += blockChars(state) - before;
    } else {
      state.dropped = true;
      blocks -= 1;
      // The block and one separator go (none is left between nothing).
      chars = blocks === 0 ? 0 : chars - before - PROMPT_SEPARATOR.length;
    }
  }
}

function render(state: PartState): string {
  const { part } = state;
  return headingText(part.heading) + part.content.slice(0, state.kept) + (state.truncated ? TRUNCATION_MARKER : '');
}

/**
 * Renders `parts` in the given order under `budget`:
 * 1. per-part `maxChars`: a longer non-required content is cut to `maxChars` (marker included;
 *    dropped if not even one character fits beside the marker); a longer required one throws;
 * 2. required blocks plus their separators must fit the budget, else throws;
 * 3. while over budget, the next part in yield order is truncated to fit exactly (marker
 *    included), or dropped when fewer than `MIN_KEPT_CHARS` content characters would remain.
 */
export function assemblePrompt(parts: readonly PromptPart[], budget: number): AssembledPrompt {
  if (!Number.isSafeInteger(budget) || budget <= 0)
    throw new TypeError(`prompt budget must be a positive safe integer, got ${String(budget)}`);
  const states: PartState[] = parts.map((part, index) => ({
    part,
    index,
    headingChars: headingText(part.heading).length,
    kept: part.content.length,
    truncated: false,
    dropped: false,
  }));
  for (const state of states) applyMaxChars(state);
  checkRequired(states, budget);
  fitBudget(states, budget);
  const text = states
    .filter((state) => !state.dropped)
    .map(render)
    .join(PROMPT_SEPARATOR);
  const reports = states.map((state): PromptPartReport => {
    const { part } = state;
    const status: PromptPartStatus = state.dropped ? 'dropped' : state.truncated ? 'truncated' : 'full';
    return Object.freeze({
      kind: part.kind,
      id: part.id,
      owner: part.owner,
      retention: part.retention,
      status,
      ...(state.reason ? { reason: state.reason } : {}),
      chars: blockChars(state),
      contentChars: part.content.length,
      keptChars: state.dropped ? 0 : state.kept,
    });
  });
  return Object.freeze({ text, chars: text.length, budget, parts: Object.freeze(reports) });
}
