/**
 * The tool table of the generated module, emitted from memoised pieces. At 5,000 tools the
 * table is ~7 MB of text; rebuilding it as one string per watch-mode edit costs more than
 * everything else the edit needs (and on small VMs every fresh multi-megabyte allocation pays
 * for page faults). So each tool's JSON line is rendered once per model object, the blocks that
 * depend only on the table's layout (names, import paths, typed-ness, order) are rebuilt only
 * when that layout changes, and the module is handed on as parts: a writer joins them, or
 * writes them as they are (write.ts keeps their bytes between runs).
 */
import { createHash } from 'node:crypto';
import type { Writable } from '../util/writable.js';
import { sha256 } from '../util/hash.js';
import { loaderCall } from './loader-call.js';
import { sameList } from '../util/lists.js';
import type { EmitMemo } from './memo.js';
import { compareStrings } from '../diagnostics.js';
import type { ManifestTool } from '@zhin-gen/runtime';
import type { ToolModel } from '../model.js';
import { json, str } from './literal.js';
import { hasGeneratedValidator, toolValidatorKey } from './validator-table.js';
import { nameHash } from './shards.js';
import { recordedValidatorKey } from '../resolve/record-tool.js';

/** What emit produces for one tool, independent of its position in the table. */
export interface ToolText {
  readonly spec: string;
  /** The tool's source path (relative to the root), for specifiers from the shards' folder. */
  readonly source: string;
  /** The name's hash, which picks the tool's shard (shards.ts). */
  readonly nameHash: number;
  /** Digest of the data line and specifier (the manifest hash never re-hashes unchanged tools). */
  readonly sha: string;
  readonly specLiteral: string;
  readonly nameLiteral: string;
  /** Key of the generated validator (validator-table.ts); undefined for a Zod schema. */
  readonly validator: string | undefined;
  /** The keywords the line carries (the tool's own, then its scope's words): `discover` searches them. */
  readonly keywords: readonly string[];
  /** The JSON line as the first line of the continued string, and as any later line. */
  readonly first: string;
  readonly next: string;
}

/**
 * Memoised by model identity (in watch mode an unchanged tool keeps its model object): a
 * one-tool edit re-renders, re-escapes and re-hashes one tool, not the table. The line itself
 * (`first`, `next`, `sha`) is rendered on use: a fresh process whose shards are current on disk
 * (shards.ts, by their recorded fingerprints) never renders the tools of those shards.
 */
export function emitTool(tool: ToolModel, spec: string, memos: EmitMemo): ToolText {
  const memo = memos.toolTexts.get(tool);
  if (memo && memo.spec === spec) return memo;
  const entry = new LazyToolText(tool, spec, memos.keywordsByScope);
  memos.toolTexts.set(tool, entry);
  return entry;
}

/**
 * A tool's texts: the cheap fields at once, the escaped JSON line and its digest when first read.
 * The line is kept from its second render on: a one-shot run reads each line once (to hash or
 * to write its shard), and keeping all of them (~22 MB at 20,000 tools, promoted to the old
 * generation during emit) was a fifth of a cold run's peak; a line read again (a watch-mode edit
 * re-rendering its shard) is one a later edit reads too.
 */
class LazyToolText implements ToolText {
  readonly source: string;
  readonly nameHash: number;
  readonly nameLiteral: string;
  readonly validator: string | undefined;
  readonly keywords: readonly string[];
  private specText: string | undefined;
  private digest: string | undefined;
  private renders = 0;
  private kept: { readonly first: string; readonly next: string } | undefined;

  constructor(
    private readonly tool: ToolModel,
    readonly spec: string,
    keywordsByScope: Map<string, readonly string[]>,
  ) {
    this.source = tool.source;
    this.nameHash = nameHash(tool.qualifiedName);
    this.nameLiteral = str(tool.qualifiedName);
    // A tool made from its cache record has the key recorded: its schema stays unread.
    this.validator = hasGeneratedValidator(tool)
      ? (recordedValidatorKey(tool) ?? toolValidatorKey(tool, json(tool.inputSchema)))
      : undefined;
    this.keywords = toolKeywords(tool, keywordsByScope);
  }

  get specLiteral(): string {
    this.specText ??= str(this.spec);
    return this.specText;
  }

  private line(): string {
    // No raw apostrophe in the JSON text (`\u0027` is the same JSON value): transpilers re-quote
    // string literals and esbuild turns one containing apostrophes into a template literal,
    // which V8 compiles ~40% slower at this size.
    return renderTool(this.tool, this.validator, this.keywords).replace(/'/g, '\\u0027');
  }

  private lines(): { readonly first: string; readonly next: string } {
    if (this.kept !== undefined) return this.kept;
    const data = continued(this.line());
    const lines = { first: `\\\n${data}`, next: `\\\n,${data}` };
    if (++this.renders > 1) this.kept = lines;
    return lines;
  }

  /** Read only by a table small enough to stay in the main module (manifest.ts): sharded tables hash their shards. */
  get sha(): string {
    this.digest ??= sha256(`${this.line()}\0${this.spec}`);
    return this.digest;
  }

  get first(): string {
    return this.lines().first;
  }

  get next(): string {
    return this.lines().next;
  }
}

/**
 * A line of the tool table: the `ManifestTool` the runtime reads, without the loaders the module
 * adds around the JSON (`load` by index; `validator` by this key, see validator-table.ts).
 */
type ToolRow = Omit<ManifestTool, 'load' | 'validator'> & { readonly validator?: string };

/**
 * One tool as one line of JSON (keys in a fixed order). The tool table is parsed with a single
 * `JSON.parse` at import: V8 parses JSON several times faster than the same object literals,
 * which is most of a large bot's start-up cost, and one tool per line stays diff-friendly.
 */
function renderTool(tool: ToolModel, validator: string | undefined, keywords: readonly string[]): string {
  // Assigned in key order, not spread (util/writable.ts): one row per tool rendered.
  const row = {
    qualifiedName: tool.qualifiedName,
    localName: tool.localName,
    owner: tool.owner,
    placement: tool.placement,
  } as Writable<ToolRow>;
  if (tool.agent !== undefined) row.agent = tool.agent;
  if (tool.skill !== undefined) row.skill = tool.skill;
  row.description = tool.description;
  row.inputSchema = tool.inputSchema;
  row.requiresApproval = tool.requiresApproval;
  row.platforms = tool.platforms;
  row.scopes = tool.scopes;
  row.permissions = tool.permissions;
  row.hidden = tool.hidden;
  row.keywords = keywords;
  if (tool.tags.length > 0) row.tags = tool.tags;
  row.source = tool.source;
  if (validator !== undefined) row.validator = validator;
  const body = json(row);
  // The tool's content hash (SPEC), over every other field of its line: what the manifest serves
  // of it, not its module's code (a body-only edit leaves the line, hash included, as it was).
  return `${body.slice(0, -1)},"hash":"${sha256(body).slice(0, 16)}"}`;
}

/**
 * The author's `keywords` (in their order) followed by the words of the tool's scope (agent,
 * skill, owner), which help `discover` match tools by their folder names.
 */
function toolKeywords(tool: ToolModel, keywordsByScope: Map<string, readonly string[]>): readonly string[] {
  const derived = scopeKeywords(tool, keywordsByScope);
  if (tool.keywords.length === 0) return derived;
  return [...new Set([...tool.keywords, ...derived])];
}

function scopeKeywords(tool: ToolModel, keywordsByScope: Map<string, readonly string[]>): readonly string[] {
  const scope = `${tool.agent ?? ''}\0${tool.skill ?? ''}\0${tool.owner}`;
  let known = keywordsByScope.get(scope);
  if (known === undefined) {
    const words = new Set<string>();
    for (const part of [tool.agent, tool.skill, tool.owner.split('/').join(' ')]) {
      for (const word of (part ?? '').split(/[\s_\-/]+/)) if (word) words.add(word);
    }
    known = [...words].sort(compareStrings);
    keywordsByScope.set(scope, known);
  }
  return known;
}

/**
 * One line escaped for the single-quoted string literal spread over lines with line
 * continuations (`\` at a line end adds nothing to the value): one JSON line per tool in the
 * source, one JSON text at runtime. Measured faster to load than a template literal.
 */
function continued(line: string): string {
  return line.replace(/\\/g, '\\\\').replace(/'/g, "\\'");
}

/** The blocks that depend on the table's layout only, with one digest over them. */
export interface LayoutBlocks {
  readonly typeImports: string;
  readonly cases: string;
  readonly toolNames: string;
  readonly inputLines: string;
  readonly sha: string;
}

export interface LayoutMemo {
  readonly names: readonly string[];
  readonly specs: readonly string[];
  readonly typed: readonly boolean[];
  readonly conditional: readonly string[];
  readonly blocks: LayoutBlocks;
}

// The memos here and in manifest.ts compare their inputs element-wise.
export { sameList };

/** Type imports, loader cases, the ToolName union and the ToolInputs lines, reused while the layout holds. */
export function layoutBlocks(
  tools: readonly ToolModel[],
  entries: readonly ToolText[],
  conditional: readonly ToolModel[],
  memos: EmitMemo,
): LayoutBlocks {
  const names = entries.map((e) => e.nameLiteral);
  const specs = entries.map((e) => e.specLiteral);
  const typed = tools.map((t) => t.typed);
  const conditionalNames = conditional.map((t) => t.qualifiedName);
  const memo = memos.layout;
  if (
    memo &&
    sameList(memo.names, names) &&
    sameList(memo.specs, specs) &&
    sameList(memo.typed, typed) &&
    sameList(memo.conditional, conditionalNames)
  )
    return memo.blocks;

  const typeImports: string[] = [];
  const cases: string[] = [];
  let inputLines: string[] = [];
  entries.forEach((entry, index) => {
    cases.push(`    case ${index}: return ${loaderCall(entry.specLiteral, typed[index]!)};`);
    if (typed[index]) {
      typeImports.push(`import type tool${index} from ${entry.specLiteral};\n`);
      inputLines.push(`  ${entry.nameLiteral}: InputOf<typeof tool${index}>;`);
    } else {
      inputLines.push(`  ${entry.nameLiteral}: Record<string, unknown>;`);
    }
  });
  let toolNames = names;
  if (conditional.length > 0) {
    inputLines = [...inputLines, ...conditionalNames.map((n) => `  ${str(n)}: Record<string, unknown>;`)].sort(
      compareStrings,
    );
    toolNames = [...tools.map((t) => t.qualifiedName), ...conditionalNames].sort(compareStrings).map(str);
  }
  const blocks = {
    typeImports: typeImports.join(''),
    cases: cases.length > 0 ? `\n${cases.join('\n')}\n  ` : '',
    toolNames: toolNames.length === 0 ? 'never' : toolNames.map((n) => `\n  | ${n}`).join(''),
    inputLines: inputLines.length > 0 ? `${inputLines.join('\n')}\n` : '',
  };
  const sha = createHash('sha256')
    .update(`${blocks.typeImports}\0${blocks.cases}\0${blocks.toolNames}\0${blocks.inputLines}`)
    .digest('hex');
  const result: LayoutBlocks = { ...blocks, sha };
  memos.layout = { names, specs, typed, conditional: conditionalNames, blocks: result };
  return result;
}

/**
 * The statements after a table's JSON that give each line its loaders (`load` by index, and a
 * string `validator` key turned into its loader): the same in the main module and in every shard.
 */
export function attachLoaders(withValidators: boolean): string {
  return withValidators
    ? `for (let index = 0; index < toolData.length; index++) {
  const tool = toolData[index]!;
  tool.load = () => loadTool(index);
  const key = tool.validator;
  if (typeof key === 'string') tool.validator = () => loadValidator(key);
}`
    : 'for (let index = 0; index < toolData.length; index++) toolData[index]!.load = () => loadTool(index);';
}
