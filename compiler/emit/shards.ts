/**
 * The tool table of a large bot, in shards (docs/cli.md#the-generated-modules). A manifest with
 * more than SHARD_TOOLS tools keeps its table in the generated modules' folder: `tools-<path>`
 * modules, each with its tools' JSON lines and their `import()` loaders, and `types.ts` with the
 * `ToolName` union and the `ToolInputs` map (types-module.ts). The main module imports the shards
 * and merges them by name (the runtime's catalog reads the table sorted), so it is byte-identical
 * while the set of shards is: an edit to one tool rewrites that tool's shard (and the search
 * index when a searched text changed), adding or removing a tool its shard and `types.ts`.
 * Which shard holds a tool, and the shards' names, is shard-layout.ts: names by trie path, so an
 * addition or removal renames at most the shard it lands in (split or merged), never the others.
 */
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { sha256 } from '../util/hash.js';
import { sameList } from '../util/lists.js';
import type { ToolModel } from '../model.js';
import { str } from './literal.js';
import { loaderCall } from './loader-call.js';
import { isTypedSource } from '../util/typed-source.js';
import type { EmitMemo } from './memo.js';
import type { SideModule } from './search-module.js';
import { placePrint, recorded } from './module-print.js';
import { inLeaf, layoutShards, type ShardLeaf } from './shard-layout.js';
import type { PositionDelta } from './sorted-tools.js';
import { attachLoaders, type ToolText } from './tool-table.js';
import { validatorFileName } from './validator-table.js';

export { isSharded, nameHash, SHARD_TOOLS } from './shard-layout.js';
export type { TypesMemo } from './types-module.js';

/** Where the shards' import specifiers point from (a file in the folder; only its directory counts). */
export interface ShardPaths {
  /** The folder's path relative to the root (POSIX). */
  readonly dirRel: string;
  /** A source path → its specifier from a module of the folder. */
  readonly spec: (source: string) => string;
  /** The manifest's output path (for the validator modules' extension). */
  readonly outRel: string;
  readonly runtimeModule: string;
  readonly header: string;
  /** What else `spec` depends on (the root and the import extension), for the modules' fingerprints. */
  readonly context: string;
}

/** One shard's tools in table order (by name), with their lines, and its leaf (name) in the layout. */
export interface ShardInput {
  readonly leaf: ShardLeaf;
  readonly tools: readonly ToolModel[];
  readonly entries: readonly ToolText[];
}

/** The table's lines are the last emit's but at `changed` (positions in table order). */
export type EntryDelta = PositionDelta<ToolText>;

export interface ShardMemo {
  readonly key: string;
  /** The group the module was made from: the same object again means the same module. */
  readonly input: ShardInput;
  readonly entries: readonly ToolText[];
  readonly typed: readonly boolean[];
  readonly module: SideModule;
  /** Digest of everything the module's text is made of (`shardPrint`). */
  readonly print: string;
}

/**
 * Each tool's fingerprint, once per model object (an unchanged tool keeps its object between
 * watch-mode runs): the one assembly recorded from the unit cache's digests when there is one
 * (resolve/assemble.ts), else the model as JSON, every field emit reads included.
 */
function toolPrint(tool: ToolModel, memos: EmitMemo): string {
  let print = memos.toolPrints.get(tool);
  if (print === undefined) memos.toolPrints.set(tool, (print = JSON.stringify(tool)));
  return print;
}

/** A shard's fingerprint (module-print.ts): its place and name, and its tools. */
function shardPrint(paths: ShardPaths, shard: ShardInput, memos: EmitMemo): string {
  // The validator key as well: it also names the Ajv and emitter versions (emit/validators.ts).
  const parts = shard.tools.map((tool, i) => `${shard.entries[i]!.validator ?? ''}\0${toolPrint(tool, memos)}`);
  return createHash('sha256')
    .update(`${placePrint(`shard ${shard.leaf.name}`, paths)}\0${parts.join('\0')}`)
    .digest('hex');
}

/**
 * The shards of a table sorted by name (shard-layout.ts): each shard keeps that order. With a
 * `delta` against the lines the last groups were made from (a watch-mode edit that kept every
 * name, so the layout is the same), the last groups are kept and only the shards holding a
 * changed line are rebuilt, with the new line in the old one's place (same name, same hash, same
 * position): the groups of unchanged shards stay the same objects, which `shardModules` takes
 * for unchanged modules.
 */
export function groupShards(
  tools: readonly ToolModel[],
  entries: readonly ToolText[],
  memos?: EmitMemo,
  delta?: EntryDelta,
): readonly ShardInput[] {
  const last = memos?.shardGroups;
  if (delta && last && last.entries === delta.previous) {
    let copy: ShardInput[] | undefined;
    for (const at of delta.changed) {
      const then = delta.previous[at]!;
      const now = entries[at]!;
      const groups = copy ?? last.groups;
      const index = groups.findIndex((group) => inLeaf(group.leaf, now.nameHash));
      const group = groups[index];
      const place = group ? group.entries.indexOf(then) : -1;
      if (!group || place === -1) return regroup(tools, entries, memos);
      const tools2 = [...group.tools];
      const entries2 = [...group.entries];
      tools2[place] = tools[at]!;
      entries2[place] = now;
      copy ??= [...last.groups];
      copy[index] = { leaf: group.leaf, tools: tools2, entries: entries2 };
    }
    const groups = copy ?? last.groups;
    if (memos) memos.shardGroups = { entries, groups };
    return groups;
  }
  return regroup(tools, entries, memos);
}

function regroup(tools: readonly ToolModel[], entries: readonly ToolText[], memos: EmitMemo | undefined): ShardInput[] {
  const groups = layoutShards(entries.map((entry) => entry.nameHash)).map(({ leaf, positions }) => ({
    leaf,
    tools: positions.map((at) => tools[at]!),
    entries: positions.map((at) => entries[at]!),
  }));
  if (memos) memos.shardGroups = { entries, groups };
  return groups;
}

/**
 * Each shard as a module of the folder, reused from the memo (by shard name) while its tools'
 * lines are the same objects: a shard split or merged by an addition or removal is rendered,
 * every other shard is the last emit's module.
 */
export function shardModules(shards: readonly ShardInput[], paths: ShardPaths, memos: EmitMemo): SideModule[] {
  // Everything of the paths the text depends on (the import extension too: a config change).
  const key = placePrint('shards', paths);
  const previous = new Map((memos.shards ?? []).map((memo) => [memo.input.leaf.name, memo]));
  const next: ShardMemo[] = [];
  const modules = shards.map((shard) => {
    const known = previous.get(shard.leaf.name);
    // The very group of the last emit (groupShards kept it): the same tools, the same module.
    if (known && known.key === key && known.input === shard) {
      next.push(known);
      return known.module;
    }
    const typed = shard.tools.map((t) => t.typed);
    if (known && known.key === key && sameList(known.entries, shard.entries) && sameList(known.typed, typed)) {
      next.push({ ...known, input: shard });
      return known.module;
    }
    const print = shardPrint(paths, shard, memos);
    const stamp = memos.prints?.get(print);
    const render = (): SideModule => {
      memos.rendered++;
      return shardModule(shard, paths);
    };
    const module = stamp === undefined ? render() : recorded(render, shard.leaf.name, stamp);
    next.push({ key, input: shard, entries: shard.entries, typed, module, print });
    return module;
  });
  memos.shards = next;
  return modules;
}

/**
 * A shard's module, its text built when read and never kept: the shards' bodies are ~27 MB at
 * 20,000 tools, and holding every one from emit to write put all of them in the old generation
 * at the cold run's peak. The stamp (a digest of the body) is taken from the first body built,
 * by the writer's `text()` on a cold run or by a comparison with the file on disk; a shard whose
 * text is needed again (a watch-mode edit's) is built again from its lines.
 */
function shardModule(shard: ShardInput, paths: ShardPaths): SideModule {
  const name = shard.leaf.name;
  let stamp: string | undefined;
  const stampOf = (body: string): string =>
    (stamp ??= `// tool table shard ${name.slice('tools-'.length)}, ${sha256(body).slice(0, 32)} (docs/cli.md#the-generated-modules)`);
  return {
    name,
    get stamp(): string {
      return stamp ?? stampOf(shardBody(shard, paths));
    },
    text: () => {
      const body = shardBody(shard, paths);
      return `${paths.header}${stampOf(body)}\n${body}`;
    },
  };
}

function shardBody(shard: ShardInput, paths: ShardPaths): string {
  const cases = shard.entries.map(
    (entry, i) => `    case ${i}: return ${loaderCall(str(paths.spec(entry.source)), isTypedSource(entry.source))};`,
  );
  const keys = [...new Set(shard.entries.flatMap((e) => (e.validator === undefined ? [] : [e.validator])))].sort();
  const validatorCases = keys.map(
    (key) =>
      `    case ${str(key)}: return import(${str(paths.spec(posix.join(paths.dirRel, validatorFileName(key, paths.outRel))))});`,
  );
  const withValidators = keys.length > 0;
  const rowType = withValidators
    ? `(Omit<ManifestTool, 'load' | 'validator'> & { load?: ManifestTool['load']; validator?: string | ManifestTool['validator'] })[]`
    : `(Omit<ManifestTool, 'load'> & { load?: ManifestTool['load'] })[]`;
  const lines = shard.entries.map((entry, i) => (i === 0 ? entry.first : entry.next)).join('');
  return `import type { ManifestTool } from ${str(paths.runtimeModule)};

/** This shard's tool modules by index: a literal import() per tool, inside one function. */
function loadTool(index: number): ReturnType<ManifestTool['load']> {
  switch (index) {${cases.length > 0 ? `\n${cases.join('\n')}\n  ` : ''}}
  throw new RangeError('zhin-gen manifest: no tool at index ' + index);
}
${
  withValidators
    ? `
/** The generated input validators of this shard's tools, by key (the tool line's \`validator\`). */
function loadValidator(key: string): ReturnType<NonNullable<ManifestTool['validator']>> {
  switch (key) {
${validatorCases.join('\n')}
  }
  throw new RangeError('zhin-gen manifest: no validator ' + key);
}
`
    : ''
}
/** This shard's tool metadata, one tool per line (parsed as JSON), sorted by name. */
const toolData: ${rowType} = JSON.parse('[${lines}\\
]');
${attachLoaders(withValidators)}

export default toolData as ManifestTool[];
`;
}

/** The stamps of the modules the last emit made, by fingerprint (what cache/emit-record.ts keeps). */
export function modulePrints(memos: EmitMemo): ReadonlyMap<string, string> {
  const prints = new Map<string, string>();
  for (const shard of memos.shards ?? []) prints.set(shard.print, shard.module.stamp);
  if (memos.types) prints.set(memos.types.print, memos.types.module.stamp);
  return prints;
}

/** The main module's code that imports the shards and merges them by name (the table's order). */
export function shardImports(modules: readonly SideModule[], specOf: (name: string) => string): string {
  return modules.map((m, i) => `import shard${i} from ${str(specOf(m.name))};\n`).join('');
}

export function mergeCode(count: number): string {
  const list = Array.from({ length: count }, (_, i) => `shard${i}`).join(', ');
  return `
/** Two tables sorted by name as one (code-unit order, as the compiler sorts). */
function merge(a: readonly ManifestTool[], b: readonly ManifestTool[]): ManifestTool[] {
  const out: ManifestTool[] = new Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let o = 0;
  while (i < a.length && j < b.length) out[o++] = a[i]!.qualifiedName < b[j]!.qualifiedName ? a[i++]! : b[j++]!;
  while (i < a.length) out[o++] = a[i++]!;
  while (j < b.length) out[o++] = b[j++]!;
  return out;
}

/** The tool table: the shards (each sorted by name) merged pairwise into one sorted table. */
function toolTable(): ManifestTool[] {
  let lists: readonly (readonly ManifestTool[])[] = [${list}];
  while (lists.length > 1) {
    const next: (readonly ManifestTool[])[] = [];
    for (let k = 0; k < lists.length; k += 2) next.push(k + 1 < lists.length ? merge(lists[k]!, lists[k + 1]!) : lists[k]!);
    lists = next;
  }
  return [...(lists[0] ?? [])];
}
`;
}
