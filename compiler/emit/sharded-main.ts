/**
 * The main module of a bot whose tool table is in shards (shards.ts): the shards' imports and
 * their merge, and everything that is not a tool.
 */
import { createHash } from 'node:crypto';
import type { AgentModel, SkillModel, ToolModel } from '../model.js';
import { str } from './literal.js';
import type { ManifestParts } from './manifest.js';
import type { EmitMemo } from './memo.js';
import type { SideModule } from './search-module.js';
import {
  groupShards,
  mergeCode,
  type ShardPaths,
  shardImports,
  shardModules,
  TYPES_MODULE,
  typesModule,
} from './shards.js';
import type { ToolText } from './tool-table.js';
import type { ValidatorTable } from './validator-table.js';

export interface ShardedInput {
  readonly tools: readonly ToolModel[];
  readonly entries: readonly ToolText[];
  readonly conditional: readonly ToolModel[];
  readonly skills: readonly SkillModel[];
  readonly agents: readonly AgentModel[];
  readonly count: number;
  readonly paths: ShardPaths;
  /** A module of the folder by name → its specifier from the main module. */
  readonly mainSpec: (name: string) => string;
  readonly head: string;
  readonly packageImports: string;
  readonly pluginsText: string;
  readonly rest: string;
  readonly validators: ValidatorTable;
  readonly search: SideModule | undefined;
  readonly memos: EmitMemo;
}

/**
 * The main module of a sharded table (shards.ts): it imports the shards and the types module and
 * holds everything else; its bytes depend on the set of shards, never on one tool's data.
 */
export function emitSharded(input: ShardedInput): ManifestParts {
  const { paths, memos } = input;
  const shardList = shardModules(groupShards(input.tools, input.entries, input.count), paths, memos);
  const types = typesModule(input.tools, input.conditional, paths, memos);
  const text = `${input.head}${shardImports(shardList, input.mainSpec)}${input.packageImports}${mergeCode(shardList.length)}
export const manifest: CapabilityManifest = {
  version: 1,
  plugins: ${input.pluginsText},
  tools: toolTable(),
${input.rest}
};

export type { ToolInputs, ToolName } from ${str(input.mainSpec(TYPES_MODULE))};

export type SkillName = ${union(input.skills.map((s) => s.qualifiedName))};

export type AgentName = ${union(input.agents.map((a) => a.qualifiedName))};
`;
  const modules: SideModule[] = [types, ...shardList, ...(input.search ? [input.search] : [])];
  const writes = { count: 0 };
  return {
    folderWrites: writes,
    parts: [text],
    digest: createHash('sha256').update(text).digest('hex'),
    validators: { ...input.validators, modules, writes },
  };
}

/** A union type of string literals (`never` when empty), one member per line. */
export function union(names: readonly string[]): string {
  return names.length === 0 ? 'never' : names.map((n) => `\n  | ${str(n)}`).join('');
}
