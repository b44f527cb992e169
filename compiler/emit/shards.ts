/**
 * The tool table of a large bot, in shards (docs/cli.md#the-generated-modules). A manifest with
 * more than SHARD_TOOLS tools keeps its table in the generated modules' folder: `tools-<i>-of-<n>`
 * modules, each with its tools' JSON lines and their `import()` loaders, and `types.ts` with the
 * `ToolName` union and the `ToolInputs` map. The main module imports the shards and merges them
 * by name (the runtime's catalog reads the table sorted), so it is byte-identical while the set
 * of shards is: an edit to one tool rewrites that tool's shard (and the search index when a
 * searched text changed), adding or removing a tool its shard and `types.ts`. A dev server then
 * transforms one shard of tens of kilobytes instead of a module of tens of megabytes.
 *
 * A tool's shard is a hash of its name modulo a power of two, so an insertion never moves any
 * other tool, and when the count crosses a power of two (the shards double or halve) each shard
 * splits into two or two merge into one.
 */
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { sha256 } from '../util/hash.js';
import { sameList } from '../util/lists.js';
import type { ToolModel } from '../model.js';
import { str } from './literal.js';
import type { EmitMemo } from './memo.js';
import type { SideModule } from './search-module.js';
import type { PositionDelta } from './sorted-tools.js';
import { attachLoaders, type ToolText } from './tool-table.js';
import { validatorFileName } from './validator-table.js';

/** Tools per shard on average; a table of at most this many stays in the main module. */
export const SHARD_TOOLS = 64;
/** Past this many shards they grow instead (a main module of a few hundred imports at most). */
const MAX_SHARDS = 1024;

/** How many shards a table of `tools` tools has: 0 (inline in the main module) or a power of two. */
export function shardCount(tools: number): number {
  if (tools <= SHARD_TOOLS) return 0;
  let count = 2;
  while (count < MAX_SHARDS && count * SHARD_TOOLS < tools) count *= 2;
  return count;
}

/** 32-bit FNV-1a over UTF-16 code units: the same number for the same name on every machine. */
export function nameHash(name: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    hash ^= name.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** A shard's module name (without extension): `tools-07-of-16`. */
export function shardName(index: number, count: number): string {
  const width = String(count - 1).length;
  return `tools-${String(index).padStart(width, '0')}-of-${count}`;
}

export const TYPES_MODULE = 'types';

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

/** One shard's tools in table order (by name), with their lines. */
export interface ShardInput {
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
 * Bumped when a module's text changes for the same inputs: a fingerprint recorded by an older
 * emitter must not vouch for a stamp the current one would not write. (The record is also
 * versioned with zhin-gen's own version: cache/emit-record.ts.)
 */
const PRINT_FORMAT = 'zhin-gen module print 1';

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

/**
 * A module's fingerprint: its place, the paths its specifiers depend on and its tools. Equal
 * fingerprints give equal text (emit is a pure function of them), so a fresh process takes the
 * stamp recorded for one (memo.ts `prints`) instead of rendering the module: the writer compares
 * that stamp with the file's, and renders only when they differ.
 */
function shardPrint(what: string, paths: ShardPaths, shard: ShardInput, memos: EmitMemo): string {
  // The validator key as well: it also names the Ajv and emitter versions (emit/validators.ts).
  const parts = shard.tools.map((tool, i) => `${shard.entries[i]!.validator ?? ''}\0${toolPrint(tool, memos)}`);
  return createHash('sha256')
    .update(`${placePrint(what, paths)}\0${parts.join('\0')}`)
    .digest('hex');
}

function placePrint(what: string, paths: ShardPaths): string {
  return `${PRINT_FORMAT}\0${what}\0${paths.dirRel}\0${paths.outRel}\0${paths.runtimeModule}\0${paths.context}\0${paths.header}`;
}

/** A module whose text is rendered only if the writer needs it, under the stamp recorded for its print. */
function recorded(module: () => SideModule, name: string, stamp: string): SideModule {
  return { name, stamp, text: () => module().text() };
}

/**
 * The shards of a table sorted by name: each shard keeps that order. With a `delta` against the
 * lines the last groups were made from (a watch-mode edit that kept every name), the last groups
 * are kept and only the shards holding a changed line are rebuilt, with the new line in the old
 * one's place (same name, same hash, same position): the groups of unchanged shards stay the same
 * objects, which `shardModules` takes for unchanged modules.
 */
export function groupShards(
  tools: readonly ToolModel[],
  entries: readonly ToolText[],
  count: number,
  memos?: EmitMemo,
  delta?: EntryDelta,
): readonly ShardInput[] {
  const last = memos?.shardGroups;
  const mask = count - 1;
  if (delta && last && last.entries === delta.previous && last.groups.length === count) {
    let copy: ShardInput[] | undefined;
    for (const at of delta.changed) {
      const then = delta.previous[at]!;
      const now = entries[at]!;
      const index = now.nameHash & mask;
      const group = (copy ?? last.groups)[index]!;
      const place = group.entries.indexOf(then);
      if (place === -1 || (then.nameHash & mask) !== index) return regroup(tools, entries, count, memos);
      const tools2 = [...group.tools];
      const entries2 = [...group.entries];
      tools2[place] = tools[at]!;
      entries2[place] = now;
      copy ??= [...last.groups];
      copy[index] = { tools: tools2, entries: entries2 };
    }
    const groups = copy ?? last.groups;
    if (memos) memos.shardGroups = { entries, groups };
    return groups;
  }
  return regroup(tools, entries, count, memos);
}

function regroup(
  tools: readonly ToolModel[],
  entries: readonly ToolText[],
  count: number,
  memos: EmitMemo | undefined,
): ShardInput[] {
  const groups: { tools: ToolModel[]; entries: ToolText[] }[] = [];
  for (let i = 0; i < count; i++) groups.push({ tools: [], entries: [] });
  const mask = count - 1;
  for (let i = 0; i < tools.length; i++) {
    const entry = entries[i]!;
    const group = groups[entry.nameHash & mask]!;
    group.tools.push(tools[i]!);
    group.entries.push(entry);
  }
  if (memos) memos.shardGroups = { entries, groups };
  return groups;
}

/** Each shard as a module of the folder, reused from the memo while its tools' lines are the same objects. */
export function shardModules(shards: readonly ShardInput[], paths: ShardPaths, memos: EmitMemo): SideModule[] {
  const key = `${paths.dirRel}\0${paths.outRel}\0${paths.runtimeModule}\0${shards.length}`;
  const previous = memos.shards;
  const next: ShardMemo[] = [];
  const modules = shards.map((shard, index) => {
    const known = previous?.[index];
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
    const print = shardPrint(`shard ${index} of ${shards.length}`, paths, shard, memos);
    const stamp = memos.prints?.get(print);
    const render = (): SideModule => {
      memos.rendered++;
      return shardModule(shard, index, shards.length, paths);
    };
    const module = stamp === undefined ? render() : recorded(render, shardName(index, shards.length), stamp);
    next.push({ key, input: shard, entries: shard.entries, typed, module, print });
    return module;
  });
  memos.shards = next;
  return modules;
}

function shardModule(shard: ShardInput, index: number, count: number, paths: ShardPaths): SideModule {
  const cases = shard.entries.map((entry, i) => `    case ${i}: return import(${str(paths.spec(entry.source))});`);
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
  const body = `import type { ManifestTool } from ${str(paths.runtimeModule)};

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
  const stamp = `// tool table shard ${index + 1} of ${count}, ${sha256(body).slice(0, 32)} (docs/cli.md#the-generated-modules)`;
  return { name: shardName(index, count), stamp, text: () => `${paths.header}${stamp}\n${body}` };
}

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

function renderTypes(tools: readonly ToolModel[], conditional: readonly ToolModel[], paths: ShardPaths): SideModule {
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
  const body = `import type { InputOf } from ${str(paths.runtimeModule)};
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
  const stamp = `// tool names and input types, ${sha256(body).slice(0, 32)} (docs/cli.md#the-generated-modules)`;
  return { name: TYPES_MODULE, stamp, text: () => `${paths.header}${stamp}\n${body}` };
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
