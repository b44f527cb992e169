/**
 * `types.ts` of a large bot's generated folder (docs/cli.md#the-generated-modules): the
 * `ToolName` union and the `ToolInputs` map, `import type` of every typed tool module. Only tsc
 * reads it (a bundler erases the main module's `export type` of it); its text depends on the
 * names, typed flags and sources alone, so a schema or description edit keeps it.
 */
import { createHash } from 'node:crypto';
import { sha256 } from '../util/hash.js';
import { sameList } from '../util/lists.js';
import type { ToolModel } from '../model.js';
import { str } from './literal.js';
import type { EmitMemo } from './memo.js';
import { placePrint, recorded } from './module-print.js';
import type { SideModule } from './search-module.js';
import type { ShardPaths } from './shards.js';

export const TYPES_MODULE = 'types';

export interface TypesMemo {
  readonly key: string;
  readonly tools: readonly ToolModel[];
  readonly conditional: readonly ToolModel[];
  readonly names: readonly string[];
  readonly typed: readonly boolean[];
  readonly sources: readonly string[];
  readonly module: SideModule;
  readonly print: string;
}

/**
 * `types.ts`: the tool names and each tool's input type (`import type` of every tool module: only
 * tsc reads it, a bundler erases the main module's `export type` of it).
 */
export function typesModule(
  tools: readonly ToolModel[],
  conditional: readonly ToolModel[],
  paths: ShardPaths,
  memos: EmitMemo,
): SideModule {
  const key = `${paths.dirRel}\0${paths.runtimeModule}`;
  const known = memos.types;
  // Watch mode: most tools are the same model objects as last time; only the others are compared.
  if (known && known.key === key && sameTypes(known, tools, conditional)) {
    memos.types = { ...known, tools, conditional };
    return known.module;
  }
  const names = [...tools.map((t) => t.qualifiedName), ...conditional.map((t) => `\0${t.qualifiedName}`)];
  const typed = tools.map((t) => t.typed);
  const sources = tools.map((t) => t.source);
  const memo = memos.types;
  if (
    memo &&
    memo.key === key &&
    sameList(memo.names, names) &&
    sameList(memo.typed, typed) &&
    sameList(memo.sources, sources)
  )
    return memo.module;
  // Its text depends on the names, typed flags and sources alone, so a schema or description edit
  // keeps its print.
  const print = createHash('sha256')
    .update(placePrint(TYPES_MODULE, paths))
    .update(`\0${names.join('\0')}\0\0${typed.join(',')}\0\0${sources.join('\0')}`)
    .digest('hex');
  const stamp = memos.prints?.get(print);
  const render = (): SideModule => {
    memos.rendered++;
    return renderTypes(tools, conditional, paths);
  };
  const module = stamp === undefined ? render() : recorded(render, TYPES_MODULE, stamp);
  memos.types = { key, tools, conditional, names, typed, sources, module, print };
  return module;
}

/** The types module, its text built when read and never kept (as a shard's: shards.ts `shardModule`). */
function renderTypes(tools: readonly ToolModel[], conditional: readonly ToolModel[], paths: ShardPaths): SideModule {
  let stamp: string | undefined;
  const stampOf = (body: string): string =>
    (stamp ??= `// tool names and input types, ${sha256(body).slice(0, 32)} (docs/cli.md#the-generated-modules)`);
  return {
    name: TYPES_MODULE,
    get stamp(): string {
      return stamp ?? stampOf(typesBody(tools, conditional, paths));
    },
    text: () => {
      const body = typesBody(tools, conditional, paths);
      return `${paths.header}${stampOf(body)}\n${body}`;
    },
  };
}

function typesBody(tools: readonly ToolModel[], conditional: readonly ToolModel[], paths: ShardPaths): string {
  const imports: string[] = [];
  const inputs: [string, string][] = [];
  tools.forEach((tool, index) => {
    if (tool.typed) {
      imports.push(`import type tool${index} from ${str(paths.spec(tool.source))};\n`);
      inputs.push([tool.qualifiedName, `InputOf<typeof tool${index}>`]);
    } else inputs.push([tool.qualifiedName, 'Record<string, unknown>']);
  });
  for (const tool of conditional) inputs.push([tool.qualifiedName, 'Record<string, unknown>']);
  inputs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return `import type { InputOf } from ${str(paths.runtimeModule)};
${imports.join('')}
export type ToolName = ${inputs.length === 0 ? 'never' : inputs.map(([name]) => `\n  | ${str(name)}`).join('')};

export interface ToolInputs {
${inputs.map(([name, type]) => `  ${str(name)}: ${type};\n`).join('')}}

declare module ${str(paths.runtimeModule)} {
  interface CapabilityRegistry {
    toolInputs: ToolInputs;
  }
}
`;
}

/** Whether these lists give the types module of the memo (same names, typed flags and sources). */
function sameTypes(memo: TypesMemo, tools: readonly ToolModel[], conditional: readonly ToolModel[]): boolean {
  if (memo.tools.length !== tools.length || memo.conditional.length !== conditional.length) return false;
  for (let i = 0; i < tools.length; i++) {
    const now = tools[i]!;
    if (now === memo.tools[i]) continue;
    if (now.qualifiedName !== memo.names[i] || now.typed !== memo.typed[i] || now.source !== memo.sources[i])
      return false;
  }
  for (let i = 0; i < conditional.length; i++)
    if (conditional[i]!.qualifiedName !== memo.conditional[i]!.qualifiedName) return false;
  return true;
}
