/**
 * What one compiler's emits remember between its runs (watch mode re-emits after every edit, and
 * reusing unchanged pieces by identity is what keeps a one-tool edit cheap: see tool-table.ts).
 * The `Compiler` owns one and it dies with it: two compilers in one process never evict each
 * other's pieces, and nothing outlives `dispose()`. The emit functions stay pure functions of
 * their input; a fresh memo only means nothing is reused.
 */
import { type SearchDocument, SearchEncoder } from '@zhin-gen/runtime/search';
import type { ToolModel } from '../model.js';
import type { LayoutMemo, ToolText } from './tool-table.js';
import type { SearchModuleMemo } from './search-module.js';
import type { ValidatorTableMemo } from './validator-table.js';
import type { ShardInput, ShardMemo, TypesMemo } from './shards.js';
import type { ItemsMemo } from './items-module.js';

export class EmitMemo {
  /** Import specifiers by source, for one root, output path and extension (a change starts over). */
  specifiers = { root: '', outRel: '', importExtension: '', bySource: new Map<string, string>() };
  /** Emitted text of skills, agents, sections and hooks, by model object. */
  readonly itemTexts = new WeakMap<object, { readonly extra: string; readonly text: string }>();
  /** The items block of the last emit, with the item texts it was made of. */
  lastItems: { readonly list: readonly string[]; readonly text: string } | undefined;
  /** Each tool's line and digest, by model object. */
  readonly toolTexts = new WeakMap<ToolModel, ToolText>();
  /** The last emit's tools sorted by name, with the model list they came from (manifest.ts). */
  sortedTools:
    | {
        readonly input: readonly ToolModel[];
        readonly tools: readonly ToolModel[];
        readonly conditional: readonly ToolModel[];
        /** Positions by object; sorted-tools.ts moves them over on an edit (never shared). */
        readonly toolsAt: Map<ToolModel, number>;
        readonly conditionalAt: Map<ToolModel, number>;
      }
    | undefined;
  /** The last emit's tool lines, in the order of `tools` (manifest.ts rebuilds only the changed ones). */
  lastEntries:
    | {
        readonly tools: readonly ToolModel[];
        readonly entries: readonly ToolText[];
        readonly bySource: ReadonlyMap<string, string>;
      }
    | undefined;
  /** The last emit's shard groups, with the tool lines they were grouped from (shards.ts). */
  shardGroups: { readonly entries: readonly ToolText[]; readonly groups: readonly ShardInput[] } | undefined;
  /** Keywords by scope: the tools of one skill or agent share them (read-only, never mutated). */
  readonly keywordsByScope = new Map<string, readonly string[]>();
  /** The layout blocks of the last emit, with what they were made of. */
  layout: LayoutMemo | undefined;
  /** The validator table of the last emit. */
  validators: ValidatorTableMemo | undefined;
  /** The search module of the last emit (search-module.ts). */
  search: SearchModuleMemo | undefined;
  /** Specifiers from the generated modules' folder by source (reset with `specifiers`). */
  folderSpecifiers = new Map<string, string>();
  /** The shards of the last emit, in layout order; reused by shard name (shards.ts). */
  shards: readonly ShardMemo[] | undefined;
  /** How many folder modules (shards, types) were rendered so far (`RunStats.rendered`). */
  rendered = 0;
  /** Each tool's fingerprint, by model object (shards.ts). */
  readonly toolPrints = new WeakMap<ToolModel, string>();
  /**
   * The stamps of generated modules by fingerprint (shards.ts), as a run of another process
   * recorded them (cache/emit-record.ts): empty until the compiler loads the record.
   */
  prints: ReadonlyMap<string, string> | undefined;
  /** The items module of the last emit, with what it was made of (items-module.ts). */
  itemsModule: ItemsMemo | undefined;
  /** The sharded main module's last text, with what it was made of (sharded-main.ts). */
  mainText: { readonly key: string; readonly text: string; readonly digest: string } | undefined;
  /** The types module of the last emit (shards.ts). */
  types: TypesMemo | undefined;
  /** Each tool's searched texts, by its memoised line. */
  readonly searchTexts = new WeakMap<ToolText, string>();
  /** Each tool's discover document, by its memoised line. */
  readonly searchDocuments = new WeakMap<ToolText, SearchDocument>();
  /** The discover index's encoder, which remembers what it encoded last (search-module.ts). */
  readonly searchEncoder = new SearchEncoder();
}
