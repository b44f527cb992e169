/**
 * The `discover` index shipped beside the manifest (docs/catalog.md#the-search-index): the module
 * `search.ts` in the generated modules' folder (validator-table.ts), imported by the runtime on a
 * generation's first `discover` instead of tokenizing every tool on a user's turn. The data is
 * the runtime's own encoding of the runtime's own documents (`@zhin-gen/runtime/search`).
 *
 * Its name is fixed, so the manifest's line never changes (a committed manifest keeps merging
 * without conflicts). Its second line records a digest of what it indexes (each tool's and
 * skill's name, keywords, tags and description, in table order), not of its bytes: a run decides
 * "same index?" from the texts and that line alone and encodes only when they differ, so an edit
 * to a schema or an `execute` body, or a fresh process over an unchanged catalog, never rebuilds
 * it. In watch mode the texts are compared by identity first (unchanged tools keep their model),
 * and the compiler's one `SearchEncoder` (memo.ts) re-encodes only what an edit changed.
 */
import { createHash } from 'node:crypto';
import { SEARCH_DATA_HEADER, searchDocument } from '@zhin-gen/runtime/search';
import type { SkillModel, ToolModel } from '../model.js';
import { sameList } from '../util/lists.js';
import { str } from './literal.js';
import type { EmitMemo } from './memo.js';
import type { ToolText } from './tool-table.js';

/**
 * A generated module of the folder that is not a validator: a fixed file name, and the stamp its
 * second line carries while its text is current.
 */
export interface SideModule {
  /** File name without the extension. */
  readonly name: string;
  /** The module's second line; a file without it is rewritten. */
  readonly stamp: string;
  /** Built only when the file is missing or carries another stamp. */
  readonly text: () => string;
}

export const SEARCH_MODULE = 'search';

export interface SearchModule extends SideModule {
  /** The manifest's `search` property line (with its leading line break). */
  readonly property: (specifier: string) => string;
}

export interface SearchModuleMemo {
  readonly texts: readonly string[];
  /**
   * The stamp's digest of each block of BLOCK texts (DIGEST bytes each, in order): an edit rehashes
   * the blocks whose texts changed, not the catalog (about 11 ms at 5,000 tools per edit before).
   */
  readonly blocks: Buffer;
  /** The tool lines the texts were made from (watch mode compares these by identity first). */
  readonly entries?: readonly ToolText[];
  readonly module: SearchModule;
}

const SEPARATOR = '\u0001';
/** Texts per block of the stamp's digest: what one edit rehashes (about 14 KB of text). */
const BLOCK = 64;
/** Bytes kept of each block's SHA-256. */
const DIGEST = 16;

function toolText(tool: ToolModel, entry: ToolText): string {
  return `${tool.qualifiedName}\0${entry.keywords.join(SEPARATOR)}\0${tool.tags.join(SEPARATOR)}\0${tool.description}`;
}

/** The search module of a manifest with these tools (table order) and skills (sorted), if any. */
export function searchModule(
  tools: readonly ToolModel[],
  entries: readonly ToolText[],
  skills: readonly SkillModel[],
  header: string,
  memos: EmitMemo,
): SearchModule | undefined {
  if (tools.length === 0 && skills.length === 0) return undefined;
  const known = memos.search;
  if (known?.entries && sameSearched(known, tools, entries, skills, memos)) {
    memos.search = { ...known, entries };
    return known.module;
  }
  const texts = tools.map((tool, index) => {
    const entry = entries[index]!;
    // Per memoised line: the same string while the tool's model is (watch mode).
    let text = memos.searchTexts.get(entry);
    if (text === undefined) memos.searchTexts.set(entry, (text = toolText(tool, entry)));
    return text;
  });
  for (const skill of skills) texts.push(skillText(skill));
  texts.push(String(tools.length));
  const memo = memos.search;
  if (memo && sameList(memo.texts, texts)) return memo.module;
  const blocks = blockDigests(texts, memo);
  const digest = createHash('sha256').update(SEARCH_DATA_HEADER).update(blocks).digest('hex');
  const stamp = `// discover index ${digest.slice(0, 32)} (docs/catalog.md#the-search-index)`;
  const module: SearchModule = {
    name: SEARCH_MODULE,
    stamp,
    text: () =>
      `${header}${stamp}\nexport default ${str(
        // The memo's encoder: after an edit it re-encodes only the edited documents' tokens.
        memos.searchEncoder.encode(
          tools.map((tool, index) => {
            const entry = entries[index]!;
            // Per memoised line, so the encoder finds an unchanged tool's document by identity.
            let document = memos.searchDocuments.get(entry);
            if (document === undefined)
              memos.searchDocuments.set(
                entry,
                (document = searchDocument(tool.qualifiedName, entry.keywords, tool.tags, tool.description)),
              );
            return document;
          }),
          skills.map((skill) => searchDocument(skill.qualifiedName, skill.keywords, skill.tags, skill.description)),
        ),
      )};\n`,
    property: (specifier) => `\n  search: () => import(${str(specifier)}),`,
  };
  memos.search = { texts, blocks, entries, module };
  return module;
}

/**
 * The digest of each block of BLOCK texts: the last emit's where the block holds the same texts
 * (same positions, same extent), a fresh SHA-256 of the block's texts (each after two NULs)
 * otherwise. An edit in place rehashes one block; a tool added or removed, the blocks after it.
 */
function blockDigests(texts: readonly string[], last: SearchModuleMemo | undefined): Buffer {
  const count = Math.ceil(texts.length / BLOCK);
  const out = Buffer.allocUnsafe(count * DIGEST);
  const known = last?.texts;
  for (let block = 0; block < count; block++) {
    const from = block * BLOCK;
    const to = Math.min(texts.length, from + BLOCK);
    if (known !== undefined && Math.min(known.length, from + BLOCK) === to && sameRange(known, texts, from, to)) {
      last!.blocks.copy(out, block * DIGEST, block * DIGEST, (block + 1) * DIGEST);
      continue;
    }
    let joined = '';
    for (let i = from; i < to; i++) joined += `\0\0${texts[i]!}`;
    createHash('sha256')
      .update(joined)
      .digest()
      .copy(out, block * DIGEST, 0, DIGEST);
  }
  return out;
}

function sameRange(a: readonly string[], b: readonly string[], from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (a[i] !== b[i]) return false;
  return true;
}

function skillText(skill: SkillModel): string {
  return `${skill.qualifiedName}\0${skill.keywords.join(SEPARATOR)}\0${skill.tags.join(SEPARATOR)}\0${skill.description}`;
}

/**
 * Whether the memo's index is the index of these tools and skills: the same lines by identity, or
 * lines whose searched text is the same (a schema edit makes a new line with the same text).
 */
function sameSearched(
  memo: SearchModuleMemo,
  tools: readonly ToolModel[],
  entries: readonly ToolText[],
  skills: readonly SkillModel[],
  memos: EmitMemo,
): boolean {
  const last = memo.entries!;
  if (last.length !== entries.length || memo.texts.length !== tools.length + skills.length + 1) return false;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    if (entry === last[i]) continue;
    let text = memos.searchTexts.get(entry);
    if (text === undefined) memos.searchTexts.set(entry, (text = toolText(tools[i]!, entry)));
    if (text !== memo.texts[i]) return false;
  }
  for (let i = 0; i < skills.length; i++) if (skillText(skills[i]!) !== memo.texts[tools.length + i]) return false;
  return true;
}
