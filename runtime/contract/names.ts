/**
 * The naming rules of docs/authoring.md, defined once. The runtime applies them while it prepares a
 * generation; the compiler imports this module and applies the same predicates at build time, so
 * a tree that passes `zhin-gen check` never fails `host.load()` on a name. Patterns, reserved
 * names, predicates (with the message part that describes the rule) and qualifiedName builders
 * only: no run-time imports, so it costs the compiler nothing to take.
 */
import type { ToolPlacement } from './enums.js';

/** Joins owner path segments, the enclosing scope and the local name in a qualifiedName. */
export const NAME_SEPARATOR = '__';

/** What model providers accept as a tool name; every qualifiedName of a tool must match it. */
export const PROVIDER_SAFE_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
/** Tool local names: tool directories and `context.addTool()` names (also without `__`). */
export const TOOL_LOCAL_NAME = /^[a-z0-9][a-z0-9_-]*$/;
/**
 * Every other name: owner path segments (child-plugin keys), skill, agent, hook and prompt
 * section directories, `context.addPromptSection()` names. No `_`, so never a `__` either.
 */
export const NAME_SEGMENT = /^[a-z0-9][a-z0-9-]*$/;

/** The controller's meta tools (docs/catalog.md). */
export const DISCOVER = 'discover';
export const LOAD_TOOL = 'load_tool';
export const LOAD_SKILL = 'load_skill';
export const META_TOOL_NAMES = [DISCOVER, LOAD_TOOL, LOAD_SKILL] as const;
export type MetaToolName = (typeof META_TOOL_NAMES)[number];
/** Generation-owned tools (runtime/turn/ask-user.ts; `spawn_task` is kept free for the task runner). */
export const ASK_USER = 'ask_user';
export const SPAWN_TASK = 'spawn_task';

/**
 * Names the runtime owns; no manifest, setup or seam tool may take them, nor any name equal to
 * one of them after case folding (the meta tools never sit in a generation's tool table, so a
 * clash check against the table alone would let `Discover` through).
 */
export const RESERVED_TOOL_NAMES: readonly string[] = Object.freeze([
  DISCOVER,
  LOAD_TOOL,
  LOAD_SKILL,
  ASK_USER,
  SPAWN_TASK,
]);

/** The key two names are compared under: names equal after case folding clash (docs/authoring.md). */
export function foldName(name: string): string {
  return name.toLowerCase();
}

/** The reserved name `name` equals after case folding, or `undefined`. */
export function reservedToolName(name: string): string | undefined {
  const folded = foldName(name);
  return RESERVED_TOOL_NAMES.find((reserved) => reserved === folded);
}

/** Why a name breaks a rule: `separator` for a `__` inside a local name, `pattern` for the pattern. */
export interface NameProblem {
  /** `length` and `hyphens`: the Agent Skills rules a skill name adds to the pattern. */
  readonly rule: 'separator' | 'pattern' | 'length' | 'hyphens';
  /** Completes "<name> …", e.g. `does not match ^[a-z0-9][a-z0-9_-]*$`. */
  readonly message: string;
}

const SEPARATOR_PROBLEM: NameProblem = Object.freeze({
  rule: 'separator',
  message: `contains "${NAME_SEPARATOR}", which separates owner segments in qualifiedNames`,
});

/** A tool local name (directory or `addTool()`), or why it is not one. */
export function toolLocalNameProblem(name: string): NameProblem | undefined {
  if (name.includes(NAME_SEPARATOR)) return SEPARATOR_PROBLEM;
  if (!TOOL_LOCAL_NAME.test(name)) return { rule: 'pattern', message: `does not match ${TOOL_LOCAL_NAME.source}` };
  return undefined;
}

/** Any other name (owner segment, skill, agent, hook, prompt section), or why it is not one. */
export function segmentNameProblem(name: string): NameProblem | undefined {
  if (!NAME_SEGMENT.test(name)) return { rule: 'pattern', message: `does not match ${NAME_SEGMENT.source}` };
  return undefined;
}

/** A tool's qualifiedName, or why providers would refuse it. */
export function providerSafeProblem(name: string): NameProblem | undefined {
  if (!PROVIDER_SAFE_NAME.test(name))
    return { rule: 'pattern', message: `does not match ${PROVIDER_SAFE_NAME.source}` };
  return undefined;
}

/**
 * Skill names follow the Agent Skills specification on top of the segment pattern: at most 64
 * characters, no `--`, no trailing `-` (the pattern already refuses a leading one). A skill is
 * the unit other agents exchange, so a name they would refuse is refused here too.
 */
export const MAX_SKILL_NAME_CHARS = 64;

/** A skill directory name, or why it is not one (`pattern` first, then the Agent Skills rules). */
export function skillNameProblem(name: string): NameProblem | undefined {
  const segment = segmentNameProblem(name);
  if (segment) return segment;
  if (name.length > MAX_SKILL_NAME_CHARS)
    return {
      rule: 'length',
      message: `is ${name.length} characters long; skill names have at most ${MAX_SKILL_NAME_CHARS}`,
    };
  if (name.includes('--'))
    return { rule: 'hyphens', message: 'contains "--"; skill names never have two hyphens in a row' };
  if (name.endsWith('-'))
    return { rule: 'hyphens', message: 'ends with "-"; skill names start and end with a letter or digit' };
  return undefined;
}

/** `''` (the root) or `/`-joined name segments. */
export function isValidOwner(owner: string): boolean {
  return owner === '' || owner.split('/').every((segment) => NAME_SEGMENT.test(segment));
}

/** docs/authoring.md: owner path segments, then the inner scope names, joined with `__`. */
export function qualify(owner: string, ...names: readonly string[]): string {
  const tail = names.join(NAME_SEPARATOR);
  if (owner === '') return tail;
  const head = owner.replaceAll('/', NAME_SEPARATOR);
  return names.length === 0 ? head : `${head}${NAME_SEPARATOR}${tail}`;
}

/** docs/authoring.md: `research`, `maps__research`, agent-private `reviewer__review`. */
export function skillQualifiedName(owner: string, skill: string, agent?: string): string {
  return agent === undefined ? qualify(owner, skill) : qualify(owner, agent, skill);
}

/** docs/authoring.md: `reviewer`, `maps__reviewer`. */
export function agentQualifiedName(owner: string, name: string): string {
  return qualify(owner, name);
}

/** Where a tool sits: its owner and the agent / skill folders around it (a manifest tool, a model). */
export interface ToolEnclosure {
  readonly owner: string;
  readonly placement: ToolPlacement;
  readonly agent?: string;
  readonly skill?: string;
}

/**
 * docs/authoring.md: owner segments, then the innermost enclosing scope (the skill, else the
 * agent), then the local name: `weather`, `maps__geocode`, `research__search`, `reviewer__diff`.
 */
export function toolQualifiedName(enclosure: ToolEnclosure, localName: string): string {
  const scope =
    enclosure.placement === 'skill' || enclosure.placement === 'agent-skill'
      ? enclosure.skill
      : enclosure.placement === 'agent'
        ? enclosure.agent
        : undefined;
  return scope !== undefined ? qualify(enclosure.owner, scope, localName) : qualify(enclosure.owner, localName);
}

/**
 * The qualifiedNames a placement waits for (docs/catalog.md): the agent that must be selected
 * (`agent`, `agent-skill`) and the skill that must be loaded (`skill`, `agent-skill`: the
 * agent-private skill). The runtime's access decision and `zhin-gen inspect` read placements
 * through it.
 */
export function enclosingNames(enclosure: ToolEnclosure): { readonly agent?: string; readonly skill?: string } {
  const { owner, placement } = enclosure;
  const agent = qualify(owner, enclosure.agent ?? '');
  switch (placement) {
    case 'agent':
      return { agent };
    case 'skill':
      return { skill: skillQualifiedName(owner, enclosure.skill ?? '') };
    case 'agent-skill':
      return { agent, skill: skillQualifiedName(owner, enclosure.skill ?? '', enclosure.agent) };
    default:
      return {};
  }
}

/** A prompt section's id: its owner path and directory (or `addPromptSection()`) name, `owner:name`. */
export function promptSectionId(section: { readonly owner: string; readonly name: string }): string {
  return `${section.owner}:${section.name}`;
}

/** A hook's id, unique per manifest: `owner:placement:agent/skill:name`. */
export function hookId(hook: ToolEnclosure & { readonly name: string }): string {
  return `${hook.owner}:${hook.placement}:${[hook.agent, hook.skill].filter((x) => x !== undefined).join('/')}:${hook.name}`;
}

// ── descriptions and other lengths ──────────────────────────────────────────────

/** Descriptions of skills and agents (and of seam skills): 1 to 1024 characters. */
export const MAX_DESCRIPTION_CHARS = 1024;
/** A skill's `compatibility` note (Agent Skills specification): at most 500 characters. */
export const MAX_COMPATIBILITY_CHARS = 500;

/**
 * Length in Unicode code points, not UTF-16 units: every limit above counts characters the way
 * the author sees them (an emoji or a CJK extension character is one), as JSON Schema's
 * `minLength` / `maxLength` do, so the compiler, its schemas and the runtime agree.
 */
export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
