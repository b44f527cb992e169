/**
 * `host.catalog()`: the capability catalog a console shows.
 * Every tool, skill, agent, plugin and prompt section of the committed generation, with owner,
 * source file, generation, profiles / platforms and budget policy.
 *
 * It never carries prompt text: no section content, no skill instructions, no AGENTS.md or agent
 * markdown — they may hold internal product policy. Sizes in characters are given instead,
 * so a console can still show what a part costs against the budget. Section titles and
 * descriptions are labels and are included. The result is plain, frozen, JSON-serialisable data.
 */
import type { SeamOrigin, ToolSourceKind } from '../generation/capability.js';
import type { Generation } from '../generation/generation.js';
import type {
  ManifestAgent,
  ManifestPlugin,
  ManifestPromptSection,
  ManifestSkill,
  ManifestTool,
} from '../contract/manifest.js';
import type { SkillSourceKind } from '../generation/skills.js';
import { systemPromptMaxChars } from '../prompt/system-prompt.js';

/** Provenance of a Capability Seam tool or skill (no instructions, no schema). */
export interface CatalogSeam {
  readonly provider: string;
  readonly scope: string;
  readonly name: string;
  readonly source?: string;
}

// Each entry picks the manifest fields it shows (runtime/contract/manifest.ts declares them once)
// and adds provenance: origin, file, seam, generation, and sizes in place of prompt text.

export interface CatalogPlugin extends Pick<ManifestPlugin, 'owner' | 'dir'> {
  /** The plugin entry (`plugin.ts`), if any. */
  readonly file?: string;
  readonly generation: number;
  /** Length of AGENTS.md (required in the prompt of this plugin's turns), if present. */
  readonly agentsMdChars?: number;
}

export interface CatalogTool
  extends Pick<
    ManifestTool,
    | 'qualifiedName'
    | 'localName'
    | 'owner'
    | 'placement'
    | 'agent'
    | 'skill'
    | 'description'
    | 'requiresApproval'
    | 'platforms'
    | 'scopes'
    | 'permissions'
    | 'hidden'
  > {
  /** Who contributed it: compiled `feature`, `setup()`, a `seam`, or the `runtime` itself. */
  readonly origin: ToolSourceKind;
  /** A compiled tool's content hash (the manifest's `hash`: a digest of what it serves of the tool). */
  readonly hash?: string;
  /** Entry file for feature tools; the plugin entry for `setup()` tools; absent otherwise. */
  readonly file?: string;
  readonly seam?: CatalogSeam;
  readonly generation: number;
}

export interface CatalogSkill
  extends Pick<
    ManifestSkill,
    | 'qualifiedName'
    | 'name'
    | 'owner'
    | 'agent'
    | 'description'
    | 'tools'
    | 'platforms'
    | 'scopes'
    | 'permissions'
    | 'always'
  > {
  readonly origin: SkillSourceKind;
  /** SKILL.md of feature skills. */
  readonly file?: string;
  readonly seam?: CatalogSeam;
  readonly generation: number;
  /** Budget policy of the instructions once loaded (see docs/prompt.md). */
  readonly retention: 'preferred';
  /** Feature skills only: a seam skill's instructions live with its provider. */
  readonly instructionsChars?: number;
}

/** An agent; `platforms` non-empty makes it a platform agent. */
export interface CatalogAgent
  extends Pick<
    ManifestAgent,
    | 'qualifiedName'
    | 'name'
    | 'owner'
    | 'description'
    | 'platforms'
    | 'tools'
    | 'model'
    | 'maxSteps'
    | 'workflows'
    | 'knowledge'
  > {
  /** agent.json. */
  readonly file: string;
  readonly generation: number;
  /** Budget policy of system.md / boundaries.md / conventions.md when the agent is selected. */
  readonly retention: 'required';
  readonly promptChars: { readonly system: number; readonly boundaries: number; readonly conventions: number };
}

export interface CatalogPromptSection
  extends Pick<
    ManifestPromptSection,
    'id' | 'name' | 'owner' | 'title' | 'layer' | 'order' | 'retention' | 'maxChars' | 'profiles' | 'platforms'
  > {
  readonly origin: Exclude<ToolSourceKind, 'runtime'>;
  /** `prompt-sections/<name>/index.ts`, or the plugin entry for `setup()` sections. */
  readonly file?: string;
  readonly generation: number;
  readonly contentChars: number;
}

export interface CapabilityCatalog {
  /** 0 when nothing is loaded (then every list is empty). */
  readonly generation: number;
  readonly manifestHash?: string;
  readonly systemPromptMaxChars?: number;
  readonly plugins: readonly CatalogPlugin[];
  readonly tools: readonly CatalogTool[];
  readonly skills: readonly CatalogSkill[];
  readonly agents: readonly CatalogAgent[];
  readonly promptSections: readonly CatalogPromptSection[];
}

function byKey<T>(key: (item: T) => string): (a: T, b: T) => number {
  return (a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
}

function list<T>(items: readonly T[]): readonly T[] {
  return Object.freeze(items.map((item) => Object.freeze(item)));
}

const EMPTY: CapabilityCatalog = Object.freeze({
  generation: 0,
  plugins: list<CatalogPlugin>([]),
  tools: list<CatalogTool>([]),
  skills: list<CatalogSkill>([]),
  agents: list<CatalogAgent>([]),
  promptSections: list<CatalogPromptSection>([]),
});

/** Fields are copied one by one: manifest entries carry loaders and prompt text that must not leak. */
export function catalogOf(generation: Generation | undefined): CapabilityCatalog {
  if (!generation) return EMPTY;
  const { manifest, id } = generation;
  const entryOf = new Map(manifest.plugins.map((plugin) => [plugin.owner, plugin.entrySource]));
  const featureFile = new Map(manifest.tools.map((tool) => [tool.qualifiedName, tool.source]));
  const featureHash = new Map(manifest.tools.map((tool) => [tool.qualifiedName, tool.hash]));
  const sectionFile = new Map(manifest.promptSections.map((section) => [section.id, section.source]));
  const fileFor = (origin: ToolSourceKind, owner: string, feature: string | undefined) =>
    origin === 'feature' ? feature : origin === 'setup' ? entryOf.get(owner) : undefined;
  const seamOf = (seam: SeamOrigin | undefined) =>
    seam === undefined
      ? {}
      : {
          seam: Object.freeze({
            provider: seam.provider,
            scope: seam.scope,
            name: seam.name,
            ...optional('source', seam.source),
          }),
        };
  const optional = <K extends string, V>(key: K, value: V | undefined) =>
    value === undefined ? {} : ({ [key]: value } as Record<K, V>);

  const plugins = manifest.plugins.map(
    (plugin): CatalogPlugin => ({
      owner: plugin.owner,
      dir: plugin.dir,
      ...optional('file', plugin.entrySource),
      generation: id,
      ...optional('agentsMdChars', plugin.agentsMd?.length),
    }),
  );
  const tools = [...generation.tools.values()].map(
    (tool): CatalogTool => ({
      qualifiedName: tool.qualifiedName,
      localName: tool.localName,
      owner: tool.owner,
      origin: tool.source,
      ...optional('hash', tool.source === 'feature' ? featureHash.get(tool.qualifiedName) : undefined),
      placement: tool.placement,
      ...optional('agent', tool.agent),
      ...optional('skill', tool.skill),
      ...optional('file', fileFor(tool.source, tool.owner, featureFile.get(tool.qualifiedName))),
      ...seamOf(tool.seam),
      generation: id,
      description: tool.description,
      requiresApproval: tool.requiresApproval,
      platforms: [...tool.platforms],
      scopes: [...tool.scopes],
      permissions: [...tool.permissions],
      hidden: tool.hidden,
    }),
  );
  // The skill table holds feature and seam skills; only manifest skills have their text at hand.
  const skills = [...generation.skillTable.values()].map(
    (skill): CatalogSkill => ({
      qualifiedName: skill.qualifiedName,
      name: skill.name,
      owner: skill.owner,
      ...optional('agent', skill.agent),
      origin: skill.source,
      ...optional('file', skill.file),
      ...seamOf(skill.seam),
      generation: id,
      description: skill.description,
      tools: [...skill.tools],
      platforms: [...skill.platforms],
      scopes: [...skill.scopes],
      permissions: [...skill.permissions],
      always: skill.always,
      retention: 'preferred',
      ...optional(
        'instructionsChars',
        skill.source === 'feature' ? generation.skills.get(skill.qualifiedName)?.instructions.length : undefined,
      ),
    }),
  );
  const agents = [...generation.agents.values()].map(
    (agent): CatalogAgent => ({
      qualifiedName: agent.qualifiedName,
      name: agent.name,
      owner: agent.owner,
      file: agent.source,
      generation: id,
      description: agent.description,
      platforms: [...agent.platforms],
      tools: [...agent.tools],
      ...optional('model', agent.model),
      ...optional('maxSteps', agent.maxSteps),
      workflows: [...agent.workflows],
      knowledge: [...agent.knowledge],
      retention: 'required',
      promptChars: {
        system: agent.system.length,
        boundaries: agent.boundaries.length,
        conventions: agent.conventions.length,
      },
    }),
  );
  const sections = [...generation.promptSections.values()].map((entry): CatalogPromptSection => {
    const { section } = entry;
    const file = fileFor(entry.source, entry.owner, sectionFile.get(entry.id));
    return {
      id: entry.id,
      name: entry.name,
      owner: entry.owner,
      title: section.title,
      origin: entry.source,
      ...optional('file', file),
      generation: id,
      layer: section.layer,
      order: section.order,
      retention: section.retention,
      ...optional('maxChars', section.maxChars),
      profiles: [...section.profiles],
      platforms: [...section.platforms],
      contentChars: section.content.length,
    };
  });
  return Object.freeze({
    generation: id,
    manifestHash: generation.manifestHash,
    systemPromptMaxChars: systemPromptMaxChars(generation.config),
    plugins: list(plugins.sort(byKey((p) => p.owner))),
    tools: list(tools.sort(byKey((t) => t.qualifiedName))),
    skills: list(skills.sort(byKey((s) => s.qualifiedName))),
    agents: list(agents.sort(byKey((a) => a.qualifiedName))),
    promptSections: list(sections.sort(byKey((s) => s.id))),
  });
}
