/**
 * `items.ts`, a module of a sharded bot's generated folder (docs/cli.md#the-generated-modules):
 * everything of the manifest but its version and its tool table (plugins, skills, agents, prompt
 * sections, hooks, host-provided tools, shipped packages, the search index's loader) and the
 * `SkillName` / `AgentName` unions. The main module spreads it into `manifest`.
 *
 * Why a module of its own: a dev server re-serves every importer of an edited shard, and the main
 * module imports every shard. With these tables in the main module, each tool edit at 20,000 tools
 * re-served about a megabyte; with them here, the main module is a few kilobytes of imports and
 * merge code, and this module, which imports no shard, keeps its URL and is not fetched again.
 */
import type { AgentModel, SkillModel } from '../model.js';
import { sha256 } from '../util/hash.js';
import { str } from './literal.js';
import type { SideModule } from './search-module.js';

export const ITEMS_MODULE = 'items';

export interface ItemsInput {
  readonly runtimeModule: string;
  readonly header: string;
  /** `import { manifest as package<i> } …` lines of the shipped packages (bare specifiers). */
  readonly packageImports: string;
  /** The `plugins` array literal, its import specifiers relative to the folder. */
  readonly pluginsText: string;
  /** The properties after `plugins` (skills through search), specifiers relative to the folder. */
  readonly rest: string;
  readonly skills: readonly SkillModel[];
  readonly agents: readonly AgentModel[];
}

export interface ItemsMemo {
  readonly runtimeModule: string;
  readonly header: string;
  readonly packageImports: string;
  readonly pluginsText: string;
  readonly rest: string;
  readonly names: string;
  readonly module: SideModule;
}

/**
 * The items module for these inputs, reused from the compiler memo's last emit when they are
 * equal: a watch-mode edit of a tool leaves every input the same (the item block keeps its string
 * object), so the text is neither rebuilt nor hashed again.
 */
export function itemsModule(input: ItemsInput, owner: { itemsModule?: ItemsMemo }): SideModule {
  const names = `${input.skills.map((s) => s.qualifiedName).join('\0')}\0\0${input.agents.map((a) => a.qualifiedName).join('\0')}`;
  const known = owner.itemsModule;
  if (
    known &&
    known.runtimeModule === input.runtimeModule &&
    known.header === input.header &&
    known.packageImports === input.packageImports &&
    known.pluginsText === input.pluginsText &&
    known.rest === input.rest &&
    known.names === names
  )
    return known.module;
  const body = `import type { CapabilityManifest } from ${str(input.runtimeModule)};
${input.packageImports}
/** The manifest's items other than its version and tool table (the main module spreads them). */
export const items: Omit<CapabilityManifest, 'version' | 'tools'> = {
  plugins: ${input.pluginsText},
${input.rest}
};

export type SkillName = ${union(input.skills.map((s) => s.qualifiedName))};

export type AgentName = ${union(input.agents.map((a) => a.qualifiedName))};
`;
  const stamp = `// plugins, skills, agents, prompt sections and hooks, ${sha256(body).slice(0, 32)} (docs/cli.md#the-generated-modules)`;
  const text = `${input.header}${stamp}\n${body}`;
  const module: SideModule = { name: ITEMS_MODULE, stamp, text: () => text };
  owner.itemsModule = { ...input, names, module };
  return module;
}

/** A union type of string literals (`never` when empty), one member per line. */
export function union(names: readonly string[]): string {
  return names.length === 0 ? 'never' : names.map((n) => `\n  | ${str(n)}`).join('');
}
