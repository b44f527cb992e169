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
  OPENAI_MAX_TOOLS,
  type OpenAIModelTool,
} from './providers.js';

/** What decides an OpenAI cut: the turn's loaded state and the generation's always-loaded tools. */
export interface SendFirst {
  readonly metaCount: number;
  /** Name → when last used (larger is more recent). */
  readonly loaded: ReadonlyMap<string, number>;
  readonly pinned: ReadonlySet<string>;
  readonly alwaysLoaded: readonly { readonly name: string }[];
}

export class RequestCaps {
  readonly #reported = new Set<string>();

  constructor(private readonly capped: ((message: string) => void) | undefined) {}

  /**
   * Over ANTHROPIC_MAX_TOOLS: the meta tools and every tool sent undeferred (always-loaded,
   * pinned, loaded) stay, then deferred tools in catalog order until the limit; the rest are left
   * out of this request (still found by `discover`, and sent once loaded). A fresh array.
   */
  anthropic(
    tools: readonly AnthropicModelTool[],
    undeferred?: readonly number[],
    undefer?: (at: number) => AnthropicModelTool,
  ): AnthropicModelTool[] {
    const { kept, droppedCount, firstDropped } = capAnthropicTools(tools, undeferred, undefer);
    this.#report('anthropic', tools.length, ANTHROPIC_MAX_TOOLS, droppedCount, firstDropped);
    return kept;
  }

  /**
   * Over OPENAI_MAX_TOOLS (nothing is deferred there, so every tool counts): the meta tools stay,
   * then what the turn chose to send — loaded tools (most recently used first), pinned, always
   * loaded — then the other listed tools in catalog order (deferral off), until the limit. `at`
   * gives a tool's position in `tools`. A fresh array either way.
   */
  openai(
    tools: readonly OpenAIModelTool[],
    send: SendFirst,
    at: (name: string) => number | undefined,
  ): OpenAIModelTool[] {
    if (tools.length <= OPENAI_MAX_TOOLS) return tools.slice();
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
    const { kept, droppedCount, firstDropped } = capByPriority(tools, first, OPENAI_MAX_TOOLS);
    this.#report('openai', tools.length, OPENAI_MAX_TOOLS, droppedCount, firstDropped);
    return kept;
  }

  #report(provider: string, listed: number, max: number, dropped: number, names: readonly string[]): void {
    const key = `${provider}:${listed}:${names[0]}:${dropped}`;
    if (dropped === 0 || this.#reported.has(key)) return;
    this.#reported.add(key);
    this.capped?.(
      `${provider}: ${listed} tools listed, over the provider's limit of ${max} per request; left out ${dropped}: ${names.join(', ')}${dropped > names.length ? ', …' : ''}`,
    );
  }
}
