/** The tool lists emit works from, sorted by name, reused between watch-mode runs. */
import { compareStrings } from '../diagnostics.js';
import type { ToolModel } from '../model.js';
import type { EmitMemo } from './memo.js';

/**
 * The table's tools and the conditional ones, each sorted by name. In watch mode an edit replaces
 * a few model objects and keeps the rest: when every replaced tool keeps its name and kind, the
 * last sorted lists with those objects swapped in are the sorted lists (no sort of 20,000 names
 * per edit).
 */
export function sortedTools(
  input: readonly ToolModel[],
  memos: EmitMemo,
): { tools: readonly ToolModel[]; conditional: readonly ToolModel[] } {
  const memo = memos.sortedTools;
  if (memo && memo.input.length === input.length) {
    let swaps: [ToolModel, ToolModel][] | undefined = [];
    for (let i = 0; i < input.length; i++) {
      const now = input[i]!;
      const then = memo.input[i]!;
      if (now === then) continue;
      if (now.qualifiedName !== then.qualifiedName || now.conditional !== then.conditional || swaps.length >= 64) {
        swaps = undefined;
        break;
      }
      swaps.push([then, now]);
    }
    if (swaps) {
      if (swaps.length === 0) return memo;
      const tools = [...memo.tools];
      const conditional = [...memo.conditional];
      for (const [then, now] of swaps) {
        const list = now.conditional ? conditional : tools;
        const at = (now.conditional ? memo.conditionalAt : memo.toolsAt).get(then)!;
        list[at] = now;
      }
      return remember(memos, input, tools, conditional);
    }
  }
  const tools = input.filter((t) => !t.conditional).sort(byName);
  const conditional = input.filter((t) => t.conditional).sort(byName);
  return remember(memos, input, tools, conditional);
}

function remember(
  memos: EmitMemo,
  input: readonly ToolModel[],
  tools: readonly ToolModel[],
  conditional: readonly ToolModel[],
): { tools: readonly ToolModel[]; conditional: readonly ToolModel[] } {
  const positions = (list: readonly ToolModel[]) => new Map(list.map((t, i) => [t, i] as const));
  memos.sortedTools = {
    input: [...input],
    tools,
    conditional,
    toolsAt: positions(tools),
    conditionalAt: positions(conditional),
  };
  return memos.sortedTools;
}

function byName(a: ToolModel, b: ToolModel): number {
  return compareStrings(a.qualifiedName, b.qualifiedName);
}
