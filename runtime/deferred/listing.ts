/**
 * What a turn's catalog can tell about itself (docs/catalog.md#the-controller-turndeferred): the
 * listing (tools, skills and agents the model can know about, each with its state) and the
 * operator's omissions (everything left out, with the reason). Both ask the per-tool access
 * decision for every catalog entry: they are views for listings and operators, not for each
 * model request (`modelTools` reads the reused lists of projection.ts).
 */
import {
  explainSkill,
  explainTool,
  skillListed,
  toolListed,
  type DisclosureView,
  type OmissionReason,
  type TurnAdmission,
} from '../access/disclosure.js';
import type { ManifestAgent } from '../contract/manifest.js';
import type { CatalogTool, GenerationCatalog } from './catalog.js';
import { META_PROJECTED, META_TOOL_NAMES, type MetaToolName } from './meta-tools.js';

/** Why a listed tool is not deferred. */
export type LoadedReason = 'meta' | 'always' | 'pinned' | 'loaded';

export interface ListedTool {
  readonly name: string;
  readonly description: string;
  readonly state: 'loaded' | 'deferred';
  readonly reason?: LoadedReason;
  readonly mcpServer?: string;
}

export interface ListedSkill {
  readonly name: string;
  readonly description: string;
  readonly loaded: boolean;
}

export interface ListedAgent {
  readonly name: string;
  readonly description: string;
  readonly selected: boolean;
  readonly platforms: readonly string[];
}

/** What the model can know about in this turn (before provider projection). */
export interface TurnListing {
  readonly tools: readonly ListedTool[];
  readonly skills: readonly ListedSkill[];
  readonly agents: readonly ListedAgent[];
}

export interface Omission {
  readonly name: string;
  readonly kind: 'tool' | 'skill';
  readonly reason: OmissionReason;
}

/** What the listing reads from its turn's controller. */
export interface ListingContext {
  readonly catalog: GenerationCatalog;
  readonly view: DisclosureView;
  readonly admission: TurnAdmission;
  readonly metaEnabled: (name: MetaToolName) => boolean;
  /** Why a listed tool is sent loaded, or undefined when it is deferred. */
  readonly visibleLoaded: (entry: CatalogTool) => LoadedReason | undefined;
  readonly agent: ManifestAgent | undefined;
}

async function check(result: boolean | Promise<boolean>): Promise<boolean> {
  return result === true || (result !== false && (await result));
}

/** Tools, skills and agents the model can know about now. */
export async function turnListing(context: ListingContext): Promise<TurnListing> {
  const { catalog, view, admission, metaEnabled, visibleLoaded, agent } = context;
  const listedTool = (entry: CatalogTool) => toolListed(entry, view, admission);
  const tools: ListedTool[] = META_TOOL_NAMES.filter(metaEnabled).map((name) =>
    Object.freeze({
      name,
      description: META_PROJECTED[name].description,
      state: 'loaded' as const,
      reason: 'meta' as const,
    }),
  );
  for (const entry of catalog.tools) {
    if (!(await check(listedTool(entry)))) continue;
    const reason = visibleLoaded(entry);
    tools.push(
      Object.freeze({
        name: entry.name,
        description: entry.binding.description,
        state: reason ? ('loaded' as const) : ('deferred' as const),
        ...(reason ? { reason } : {}),
        ...(entry.mcpServer ? { mcpServer: entry.mcpServer } : {}),
      }),
    );
  }
  const skills: ListedSkill[] = [];
  for (const entry of catalog.skills) {
    if (await check(skillListed(entry, view, admission))) {
      skills.push(
        Object.freeze({
          name: entry.name,
          description: entry.skill.description,
          loaded: view.scope.activeSkills.has(entry.name),
        }),
      );
    }
  }
  const adapter = view.message === undefined ? undefined : String(view.message.$adapter);
  const agents: ListedAgent[] = [];
  for (const candidate of catalog.generation.agents.values()) {
    const selected = candidate.qualifiedName === agent?.qualifiedName;
    // Platform agents only where they serve: other platforms never learn about them.
    if (
      !selected &&
      candidate.platforms.length > 0 &&
      (adapter === undefined || !candidate.platforms.includes(adapter))
    )
      continue;
    agents.push(
      Object.freeze({
        name: candidate.qualifiedName,
        description: candidate.description,
        selected,
        platforms: candidate.platforms,
      }),
    );
  }
  agents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return Object.freeze({
    tools: Object.freeze(tools),
    skills: Object.freeze(skills),
    agents: Object.freeze(agents),
  });
}

/** Every tool and skill left out of this turn, with the reason (never for the model). */
export async function turnOmissions(
  catalog: GenerationCatalog,
  view: DisclosureView,
  admission: TurnAdmission,
): Promise<readonly Omission[]> {
  const out: Omission[] = [];
  for (const entry of catalog.tools) {
    const reason = await explainTool(entry, view, admission);
    if (reason) out.push(Object.freeze({ name: entry.name, kind: 'tool' as const, reason }));
  }
  for (const entry of catalog.skills) {
    const reason = await explainSkill(entry, view, admission);
    if (reason) out.push(Object.freeze({ name: entry.name, kind: 'skill' as const, reason }));
  }
  return Object.freeze(out);
}
