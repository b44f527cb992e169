/**
 * The main module of a bot whose tool table is in shards (shards.ts): the shards' imports, their
 * merge, and the spread of the items module (items-module.ts), which holds everything that is not
 * a tool. Its bytes depend on the set of shards alone, so it stays a few kilobytes at any size.
 */
import { createHash } from 'node:crypto';
import type { AgentModel, SkillModel, ToolModel } from '../model.js';
import { ITEMS_MODULE, itemsModule } from './items-module.js';
import { str } from './literal.js';
import type { ManifestParts } from './manifest.js';
import type { EmitMemo } from './memo.js';
import type { SideModule } from './search-module.js';
import { type EntryDelta, groupShards, mergeCode, type ShardPaths, shardImports, shardModules } from './shards.js';
import { TYPES_MODULE, typesModule } from './types-module.js';
import type { ToolText } from './tool-table.js';
import type { ValidatorTable } from './validator-table.js';

export interface ShardedInput {
  readonly tools: readonly ToolModel[];
  readonly entries: readonly ToolText[];
  readonly conditional: readonly ToolModel[];
  readonly skills: readonly SkillModel[];
  readonly agents: readonly AgentModel[];
  readonly paths: ShardPaths;
  /** A module of the folder by name → its specifier from the main module. */
  readonly mainSpec: (name: string) => string;
  readonly head: string;
  readonly packageImports: string;
  /** The `plugins` literal and the properties after it, their specifiers relative to the folder. */
  readonly pluginsText: string;
  readonly rest: string;
  readonly validators: ValidatorTable;
  readonly search: SideModule | undefined;
  readonly memos: EmitMemo;
  /** How the lines differ from the last emit's (manifest.ts), when only some objects were swapped. */
  readonly delta?: EntryDelta;
}

/**
 * The main module of a sharded table (shards.ts): it imports the shards, the types module and the
 * items module; its bytes depend on the set of shards, never on one tool's or skill's data.
 */
export function emitSharded(input: ShardedInput): ManifestParts {
  const { paths, memos } = input;
  const groups = groupShards(input.tools, input.entries, memos, input.delta);
  const shardList = shardModules(groups, paths, memos);
  const types = typesModule(input.tools, input.conditional, paths, memos);
  const items = itemsModule(
    {
      runtimeModule: paths.runtimeModule,
      header: paths.header,
      packageImports: input.packageImports,
      pluginsText: input.pluginsText,
      rest: input.rest,
      skills: input.skills,
      agents: input.agents,
    },
    memos,
  );
  const itemsSpec = str(input.mainSpec(ITEMS_MODULE));
  const modules: SideModule[] = [types, items, ...shardList, ...(input.search ? [input.search] : [])];
  // The text depends on the shards' names and the specifiers alone: an edit reuses it and its digest.
  const key = `${input.head}\0${itemsSpec}\0${input.mainSpec(TYPES_MODULE)}\0${shardList.map((m) => m.name).join('\0')}`;
  const last = memos.mainText;
  if (last?.key === key)
    return {
      parts: [last.text],
      digest: last.digest,
      validators: { ...input.validators, modules },
    };
  const text = `${input.head}${shardImports(shardList, input.mainSpec)}import { items } from ${itemsSpec};
${mergeCode(shardList.length)}
export const manifest: CapabilityManifest = {
  version: 1,
  ...items,
  tools: toolTable(),
};

export type { ToolInputs, ToolName } from ${str(input.mainSpec(TYPES_MODULE))};

export type { AgentName, SkillName } from ${itemsSpec};
`;
  const digest = createHash('sha256').update(text).digest('hex');
  memos.mainText = { key, text, digest };
  return {
    parts: [text],
    digest,
    validators: { ...input.validators, modules },
  };
}
