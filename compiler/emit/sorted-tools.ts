/** The tool lists emit works from, sorted by name, reused between watch-mode runs. */
import { compareStrings } from '../diagnostics.js';
import type { ToolModel } from '../model.js';
import type { EmitMemo } from './memo.js';

/**
 * What changed in a list since the last emit: it equals `previous` but at `changed` (positions
 * now holding another object). The sorted table's delta, and the tool lines' that follows it.
 */
export interface PositionDelta<T> {
  readonly previous: readonly T[];
  readonly changed: readonly number[];
}

/** The table's delta: the last emit's sorted table with some objects swapped in. */
export type TableDelta = PositionDelta<ToolModel>;

export interface SortedTools {
  readonly tools: readonly ToolModel[];
  readonly conditional: readonly ToolModel[];
  /** Set when the table is the last one with some objects swapped in (same names, same order). */
  readonly delta?: TableDelta;
}

/**
 * The table's tools and the conditional ones, each sorted by name. In watch mode an edit replaces
 * a few model objects and keeps the rest: when every replaced tool keeps its name and kind, the
 * last sorted lists with those objects swapped in are the sorted lists (no sort of 20,000 names
 * per edit), and the positions swapped are handed on (`delta`), so what emit builds per tool is
 * rebuilt at those positions only.
 */
export function sortedTools(input: readonly ToolModel[], memos: EmitMemo): SortedTools {
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
      const previous = memo.tools;
      if (swaps.length === 0)
        return { tools: previous, conditional: memo.conditional, delta: { previous, changed: [] } };
      const tools = [...previous];
      const conditional = [...memo.conditional];
      const changed: number[] = [];
      // The position maps are the memo's own (nothing else holds them): moved over, not rebuilt.
      const { toolsAt, conditionalAt } = memo;
      for (const [then, now] of swaps) {
        const list = now.conditional ? conditional : tools;
        const positions = now.conditional ? conditionalAt : toolsAt;
        const at = positions.get(then)!;
        list[at] = now;
        positions.delete(then);
        positions.set(now, at);
        if (!now.conditional) changed.push(at);
      }
      memos.sortedTools = { input: [...input], tools, conditional, toolsAt, conditionalAt };
      return { tools, conditional, delta: { previous, changed } };
    }
  }
  const tools = input.filter((t) => !t.conditional).sort(byName);
  const conditional = input.filter((t) => t.conditional).sort(byName);
  const positions = (list: readonly ToolModel[]) => new Map(list.map((t, i) => [t, i] as const));
  memos.sortedTools = {
    input: [...input],
    tools,
    conditional,
    toolsAt: positions(tools),
    conditionalAt: positions(conditional),
  };
  return { tools, conditional };
}

function byName(a: ToolModel, b: ToolModel): number {
  return compareStrings(a.qualifiedName, b.qualifiedName);
}
