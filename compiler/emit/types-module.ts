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
  // Everything of the paths the text depends on (the import extension too: a config change).
  const key = placePrint(TYPES_MODULE, paths);
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

/**
 * The types module, its text built when read and never kept (as a shard's: shards.ts
 * `shardModule`). Its stamp alone is hashed from the text's pieces as they are made: at 20,000
 * tools the text is 3.4 MB made of ~60,000 strings, and building it to compare a stamp with the
 * file on disk put ~13 MB in the old generation at the end of a cold run.
 */
function renderTypes(tools: readonly ToolModel[], conditional: readonly ToolModel[], paths: ShardPaths): SideModule {
  let stamp: string | undefined;
  const stampOf = (digest: string): string =>
    (stamp ??= `// tool names and input types, ${digest.slice(0, 32)} (docs/cli.md#the-generated-modules)`);
  return {
    name: TYPES_MODULE,
    get stamp(): string {
      return stamp ?? stampOf(digestOf(typesPieces(tools, conditional, paths)));
    },
    text: () => {
      const body = [...typesPieces(tools, conditional, paths)].join('');
      return `${paths.header}${stampOf(sha256(body))}\n${body}`;
    },
  };
}

/** SHA-256 (hex) of the pieces' concatenation, hashed about 64 KB at a time. */
function digestOf(pieces: Iterable<string>): string {
  const hash = createHash('sha256');
  let batch = '';
  for (const piece of pieces) {
    batch += piece;
    if (batch.length >= 1 << 16) {
      hash.update(batch);
      batch = '';
    }
  }
  return hash.update(batch).digest('hex');
}

/** The module's text in order: the type imports, the `ToolName` union and the `ToolInputs` map (by name). */
function* typesPieces(
  tools: readonly ToolModel[],
  conditional: readonly ToolModel[],
  paths: ShardPaths,
): Generator<string> {
  const runtime = str(paths.runtimeModule);
  yield `import type { InputOf } from ${runtime};\n`;
  for (let index = 0; index < tools.length; index++) {
    const tool = tools[index]!;
    if (tool.typed) yield `import type tool${index} from ${str(paths.spec(tool.source))};\n`;
  }
  // Positions in the tools, then the conditional tools, sorted by name (a stable sort: equal
  // names keep that order).
  const nameAt = (at: number): string =>
    at < tools.length ? tools[at]!.qualifiedName : conditional[at - tools.length]!.qualifiedName;
  const order = Array.from({ length: tools.length + conditional.length }, (_, at) => at);
  order.sort((a, b) => {
    const x = nameAt(a);
    const y = nameAt(b);
    return x < y ? -1 : x > y ? 1 : 0;
  });
  yield `\nexport type ToolName = ${order.length === 0 ? 'never' : ''}`;
  for (const at of order) yield `\n  | ${str(nameAt(at))}`;
  yield ';\n\nexport interface ToolInputs {\n';
  for (const at of order)
    yield `  ${str(nameAt(at))}: ${at < tools.length && tools[at]!.typed ? `InputOf<typeof tool${at}>` : 'Record<string, unknown>'};\n`;
  yield `}\n\ndeclare module ${runtime} {\n  interface CapabilityRegistry {\n    toolInputs: ToolInputs;\n  }\n}\n`;
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
