/**
 * A turn's system prompt (`turn.systemPrompt()`): collects the parts from the turn's leased
 * generation in their fixed places and hands them to the budget algorithm. Everything read here
 * is manifest / generation data, so an old turn keeps assembling its own generation's text after
 * a newer commit.
 *
 * Render order (docs/prompt.md):
 *   1. sections of layer `system`
 *   2. AGENTS.md of every plugin on the turn owner's chain, root first (required)
 *   3. the selected sub-agent's system.md, boundaries.md, conventions.md (required)
 *   4. sections of layers `role`, `task`, `context`, `tools`
 *   5. instructions of the loaded skills, in activation order (preferred)
 *   6. sections of layers `safety`, `constraints`
 *   7. sections of layers `examples`, `memory`
 */
import { describeError, ownerChain } from '../generation/capability.js';
import type { Generation, HostConfig, PromptSectionEntry } from '../generation/generation.js';
import type { ManifestAgent, PromptLayer, PromptProfile } from '../contract/manifest.js';
import type { ImMessage } from '../access/permissions.js';
import type { SkillEntry } from '../generation/skills.js';
import { type AssembledPrompt, DEFAULT_SYSTEM_PROMPT_MAX_CHARS, type PromptPart, assemblePrompt } from './assemble.js';
import {
  type HiddenSection,
  checkSectionLimits,
  layerOf,
  promptProfileOf,
  resolveTurnOwner,
  selectSections,
} from './sections.js';

/** What the turn knows at assembly time; read fresh on every call (skills load mid-turn). */
export interface TurnPromptInput {
  /** qualifiedName of the selected agent. */
  readonly agent?: string;
  /** `TurnInput.owner`: used when no agent is selected. */
  readonly owner?: string;
  /** Loaded skills' qualifiedNames, in activation order. */
  readonly skills: Iterable<string>;
  readonly origin: string;
  /** The IM message; its adapter is the platform only for `origin: 'im'` turns. */
  readonly message?: ImMessage;
}

export interface SystemPrompt extends AssembledPrompt {
  /** The generation the text was assembled from (the turn's lease). */
  readonly generation: number;
  /** Owner path the nearest-owner override was resolved for. */
  readonly owner: string;
  readonly profile: PromptProfile;
  readonly platform?: string;
  readonly agent?: string;
  /** Sections of the generation that this turn does not see, and why (ids only, no content). */
  readonly hidden: readonly HiddenSection[];
  /** Loaded skills whose instructions could not be fetched (a seam provider failed); not in `text`. */
  readonly unavailableSkills: readonly { readonly id: string; readonly error: string }[];
}

/**
 * Instructions per skill entry, for the life of its generation: a seam skill asks its provider
 * once per generation instead of once per model call, and assemblies that ask while a request is
 * out share it. Failures are not kept (transient), nor is an answer once the entry says it can no
 * longer give one (a released provider), nor a request that outlived the time limit: a
 * `describe()` that never settles left every later assembly of the generation waiting on it.
 */
const answered = new WeakMap<SkillEntry, string>();
const asking = new WeakMap<SkillEntry, Promise<string>>();

function instructionsOf(entry: SkillEntry, timeoutMs: number): Promise<string> {
  if (entry.available?.() === false) {
    answered.delete(entry);
    asking.delete(entry);
  }
  const known = answered.get(entry);
  if (known !== undefined) return Promise.resolve(known);
  let pending = asking.get(entry);
  if (!pending) {
    const request = Promise.resolve().then(() => entry.instructions());
    pending = request;
    asking.set(entry, request);
    request.then(
      (text) => {
        if (asking.get(entry) !== request) return;
        asking.delete(entry);
        if (typeof text === 'string') answered.set(entry, text);
      },
      () => {
        if (asking.get(entry) === request) asking.delete(entry);
      },
    );
  }
  const shared = pending;
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      // The next assembly asks again instead of joining a request that may never answer.
      if (asking.get(entry) === shared) asking.delete(entry);
      reject(new Error(`instructions did not arrive within ${timeoutMs} ms`));
    }, timeoutMs);
    shared.then(
      (text) => {
        clearTimeout(timer);
        resolve(text);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A positive safe integer at `ai.agent.<key>` of a host config, else `fallback`; anything else throws (rejects the candidate). */
function agentInteger(config: HostConfig, key: string, fallback: number): number {
  const ai = config['ai'];
  const agent = isRecord(ai) ? ai['agent'] : undefined;
  const value = isRecord(agent) ? agent[key] : undefined;
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0)
    throw new TypeError(`config ai.agent.${key} must be a positive safe integer, got ${JSON.stringify(value)}`);
  return value;
}

/** `ai.agent.systemPromptMaxChars` of a host config, default 100,000. */
export function systemPromptMaxChars(config: HostConfig): number {
  return agentInteger(config, 'systemPromptMaxChars', DEFAULT_SYSTEM_PROMPT_MAX_CHARS);
}

/** `ai.agent.skillInstructionsTimeoutMs` of a host config: how long an assembly waits for a seam skill's `describe()`. */
export function skillInstructionsTimeoutMs(config: HostConfig): number {
  return agentInteger(config, 'skillInstructionsTimeoutMs', DEFAULT_SKILL_INSTRUCTIONS_TIMEOUT_MS);
}

/** `ai.agent.skillInstructionsTimeoutMs` when the host config does not set it. */
export const DEFAULT_SKILL_INSTRUCTIONS_TIMEOUT_MS = 10_000;

/** Load-time checks, so a bad budget or an impossible required section rejects the candidate. */
export function checkPromptGeneration(generation: Generation): void {
  systemPromptMaxChars(generation.config);
  skillInstructionsTimeoutMs(generation.config);
  checkSectionLimits(generation);
}

function sectionPart(entry: PromptSectionEntry): PromptPart {
  const { section } = entry;
  return {
    kind: 'section',
    id: entry.id,
    owner: entry.owner,
    retention: section.retention,
    heading: section.title,
    content: section.content,
    ...(section.maxChars !== undefined ? { maxChars: section.maxChars } : {}),
    order: section.order,
  };
}

/** File-based instructions: surrounding whitespace is layout, not content; empty files add nothing. */
function textPart(
  kind: PromptPart['kind'],
  id: string,
  owner: string,
  text: string | undefined,
  retention: PromptPart['retention'],
  order = 0,
): PromptPart[] {
  const content = text?.trim() ?? '';
  return content === '' ? [] : [{ kind, id, owner, retention, content, order }];
}

function agentParts(agent: ManifestAgent | undefined): PromptPart[] {
  if (!agent) return [];
  const { qualifiedName: id, owner } = agent;
  return [
    ...textPart('agent-system', id, owner, agent.system, 'required'),
    ...textPart('agent-boundaries', id, owner, agent.boundaries, 'required'),
    ...textPart('agent-conventions', id, owner, agent.conventions, 'required'),
  ];
}

export async function buildSystemPrompt(generation: Generation, input: TurnPromptInput): Promise<SystemPrompt> {
  const agent = input.agent === undefined ? undefined : generation.agents.get(input.agent);
  if (input.agent !== undefined && !agent)
    throw new Error(`unknown agent "${input.agent}" in generation ${generation.id}`);
  const owner = resolveTurnOwner(agent, input.owner);
  const profile = promptProfileOf(input.origin);
  const platform = input.origin === 'im' && input.message ? String(input.message.$adapter) : undefined;
  const { visible, hidden } = selectSections(generation.promptSections.values(), {
    owner,
    profile,
    ...(platform !== undefined ? { platform } : {}),
  });
  const sections = (...layers: PromptLayer[]) =>
    visible.filter((entry) => layers.includes(layerOf(entry.section.layer))).map(sectionPart);

  const plugins = new Map(generation.manifest.plugins.map((plugin) => [plugin.owner, plugin]));
  const agentsMd = [...ownerChain(owner)]
    .reverse()
    .flatMap((chainOwner) =>
      textPart('agents-md', chainOwner, chainOwner, plugins.get(chainOwner)?.agentsMd, 'required'),
    );
  // Feature and seam skills alike (the generation's skill table), in activation order.
  const entries = [...input.skills].flatMap((name) => {
    const entry = generation.skillTable.get(name);
    return entry ? [entry] : [];
  });
  const timeoutMs = skillInstructionsTimeoutMs(generation.config);
  const texts = await Promise.allSettled(entries.map((entry) => instructionsOf(entry, timeoutMs)));
  const skills: PromptPart[] = [];
  const unavailableSkills: { id: string; error: string }[] = [];
  entries.forEach((entry, index) => {
    const text = texts[index]!;
    // Older skills get a lower order, so they yield first over the budget.
    if (text.status === 'fulfilled' && typeof text.value === 'string') {
      skills.push(...textPart('skill', entry.qualifiedName, entry.owner, text.value, 'preferred', index));
    } else {
      const error = text.status === 'rejected' ? describeError(text.reason) : 'instructions are not a string';
      unavailableSkills.push(Object.freeze({ id: entry.qualifiedName, error }));
    }
  });

  const parts: PromptPart[] = [
    ...sections('system'),
    ...agentsMd,
    ...agentParts(agent),
    ...sections('role', 'task', 'context', 'tools'),
    ...skills,
    ...sections('safety', 'constraints'),
    ...sections('examples', 'memory'),
  ];
  const assembled = assemblePrompt(parts, systemPromptMaxChars(generation.config));
  return Object.freeze({
    ...assembled,
    generation: generation.id,
    owner,
    profile,
    ...(platform !== undefined ? { platform } : {}),
    ...(agent ? { agent: agent.qualifiedName } : {}),
    hidden,
    unavailableSkills: Object.freeze(unavailableSkills),
  });
}
