/**
 * The per-request tool limits of the providers (docs/catalog.md#provider-tool-limits). A request
 * the provider rejects is never built: `modelTools` cuts the turn's own list, so a cut can only
 * leave tools out, never list one the access decision did not. Each turn records what a cut left
 * out, once per distinct cut, through the controller's `capped` callback (a 'catalog' diagnostic).
 */
import {
  ANTHROPIC_MAX_TOOLS,
  type AnthropicModelTool,
  capAnthropicTools,
  capByPriority,
  type GenericModelTool,
  OPENAI_MAX_TOOLS,
  type OpenAIModelTool,
} from './providers.js';

/** What decides a cut by priority: the turn's loaded state and the generation's always-loaded tools. */
export interface SendFirst {
  readonly metaCount: number;
  /** Name → when last used (larger is more recent). */
  readonly loaded: ReadonlyMap<string, number>;
  readonly pinned: ReadonlySet<string>;
  readonly alwaysLoaded: readonly { readonly name: string }[];
}

/** The providers' own limits; `generic` has none (no provider is implied). */
const PROVIDER_MAX = { anthropic: ANTHROPIC_MAX_TOOLS, openai: OPENAI_MAX_TOOLS, generic: undefined } as const;

/** Positions in the order a cut keeps them: meta tools, loaded (most recent first), pinned, always-loaded. */
function firstPositions(send: SendFirst, at: (name: string) => number | undefined): number[] {
  const first: number[] = [];
  for (let i = 0; i < send.metaCount; i += 1) first.push(i);
  const push = (name: string) => {
    const position = at(name);
    if (position !== undefined) first.push(position);
  };
  const recent = [...send.loaded.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  for (const [name] of recent) push(name);
  for (const name of send.pinned) push(name);
  for (const entry of send.alwaysLoaded) push(entry.name);
  return first;
}

export class RequestCaps {
  readonly #reported = new Set<string>();

  constructor(private readonly capped: ((message: string) => void) | undefined) {}

  /**
   * Over ANTHROPIC_MAX_TOOLS (or the request's `maxTools`, if lower): the meta tools and every
   * tool sent undeferred (always-loaded, pinned, loaded) stay, then deferred tools in catalog
   * order until the limit; the rest are left out of this request (still found by `discover`, and
   * sent once loaded). A fresh array.
   */
  anthropic(
    tools: readonly AnthropicModelTool[],
    maxTools: number | undefined,
    undeferred?: readonly number[],
    undefer?: (at: number) => AnthropicModelTool,
    priority?: { readonly send: SendFirst; readonly at: (name: string) => number | undefined },
  ): AnthropicModelTool[] {
    const max = Math.min(ANTHROPIC_MAX_TOOLS, maxTools ?? Number.POSITIVE_INFINITY);
    if (priority !== undefined && undeferred !== undefined && undeferred.length > max) {
      // More tools to send undeferred than fit: they are cut by the OpenAI priority (meta, loaded
      // most recent first, pinned, always-loaded), so a tool `load_tool` just loaded is not left
      // out of the next request for an always-loaded one that comes earlier by name.
      const order = [...firstPositions(priority.send, priority.at), ...undeferred];
      // The meta tools are never deferred: they count as sent undeferred.
      const wanted = new Set(undeferred);
      for (let i = 0; i < priority.send.metaCount; i += 1) wanted.add(i);
      const keep = new Set<number>();
      for (const at of order) {
        if (keep.size >= max) break;
        if (wanted.has(at)) keep.add(at);
      }
      const kept: AnthropicModelTool[] = [];
      const firstDropped: string[] = [];
      const undeferTool = undefer ?? ((at: number) => tools[at]!);
      for (let i = 0; i < tools.length; i += 1) {
        if (keep.has(i)) kept.push(undeferTool(i));
        else if (firstDropped.length < 20) firstDropped.push(tools[i]!.name);
      }
      this.#report('anthropic', tools.length, max, tools.length - kept.length, firstDropped);
      return kept;
    }
    const { kept, droppedCount, firstDropped } = capAnthropicTools(tools, undeferred, undefer, max);
    this.#report('anthropic', tools.length, max, droppedCount, firstDropped);
    return kept;
  }

  /**
   * Lists where nothing is deferred, so every tool counts (OpenAI: OPENAI_MAX_TOOLS; generic: only
   * a request's `maxTools`): the meta tools stay, then what the turn chose to send — loaded tools
   * (most recently used first), pinned, always loaded — then the other listed tools in catalog
   * order (deferral off), until the limit. `at` gives a tool's position in `tools`. A fresh array.
   */
  byPriority<T extends OpenAIModelTool | GenericModelTool>(
    provider: 'openai' | 'generic',
    tools: readonly T[],
    send: SendFirst,
    at: (name: string) => number | undefined,
    maxTools: number | undefined,
  ): T[] {
    const max = Math.min(PROVIDER_MAX[provider] ?? Number.POSITIVE_INFINITY, maxTools ?? Number.POSITIVE_INFINITY);
    if (tools.length <= max) return tools.slice();
    const { kept, droppedCount, firstDropped } = capByPriority(tools, firstPositions(send, at), max);
    this.#report(provider, tools.length, max, droppedCount, firstDropped);
    return kept;
  }

  #report(
    provider: 'anthropic' | 'openai' | 'generic',
    listed: number,
    max: number,
    dropped: number,
    names: readonly string[],
  ): void {
    const key = `${provider}:${listed}:${max}:${names[0]}:${dropped}`;
    if (dropped === 0 || this.#reported.has(key)) return;
    this.#reported.add(key);
    const limit =
      max === PROVIDER_MAX[provider] ? `the provider's limit of ${max} per request` : `the request's limit of ${max}`;
    this.capped?.(
      `${provider}: ${listed} tools listed, over ${limit}; left out ${dropped}: ${names.join(', ')}${dropped > names.length ? ', …' : ''}`,
    );
  }
}
