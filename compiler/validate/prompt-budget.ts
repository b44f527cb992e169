/**
 * Prompt budget rule family (docs/prompt.md "Assembly order"): the `AGENTS.md` files of a turn's
 * plugin chain and a sub-agent's `system.md`, `boundaries.md` and `conventions.md` are required
 * parts of every system prompt, never cut. When they alone are longer than the default budget
 * (`systemPromptMaxChars`, 100,000 characters), every turn that runs as that agent fails with
 * PromptBudgetError while the build and `host.load` pass: ZG2033, a warning (a host may raise
 * the budget). A lower bound: required prompt sections, which depend on the turn, come on top.
 */
import { DEFAULT_SYSTEM_PROMPT_MAX_CHARS, PROMPT_SEPARATOR } from '@zhin-gen/runtime/define';
import { diag, type Diagnostic } from '../diagnostics.js';
import type { AgentModel, PluginModel } from '../model.js';

interface Part {
  readonly file: string;
  readonly chars: number;
}

/** The rendered length of required blocks (trimmed, as the runtime renders them), separators included. */
function requiredChars(parts: readonly Part[]): number {
  const shown = parts.filter((p) => p.chars > 0);
  return shown.reduce((sum, p) => sum + p.chars, 0) + Math.max(0, shown.length - 1) * PROMPT_SEPARATOR.length;
}

/** The owner paths from the root to `owner`: '', 'maps', 'maps/cn'. */
function chainOf(owner: string): string[] {
  if (owner === '') return [''];
  const keys = owner.split('/');
  return ['', ...keys.map((_, i) => keys.slice(0, i + 1).join('/'))];
}

const shown = (parts: readonly Part[]): string =>
  parts
    .filter((p) => p.chars > 0)
    .map((p) => `${p.file} ${p.chars.toLocaleString('en-US')}`)
    .join(', ');

export function checkRequiredPrompt(plugins: readonly PluginModel[], agents: readonly AgentModel[]): Diagnostic[] {
  const budget = DEFAULT_SYSTEM_PROMPT_MAX_CHARS;
  const byOwner = new Map(plugins.map((p) => [p.owner, p]));
  const chainParts = (owner: string): Part[] =>
    chainOf(owner).flatMap((key) => {
      const md = byOwner.get(key)?.agentsMd;
      return md ? [{ file: md.source, chars: md.text.trim().length }] : [];
    });
  const out: Diagnostic[] = [];
  const over = new Set<string>();
  for (const plugin of plugins) {
    const parts = chainParts(plugin.owner);
    const chars = requiredChars(parts);
    if (chars <= budget || !plugin.agentsMd) continue;
    over.add(plugin.owner);
    out.push(
      diag('ZG2033', {
        file: plugin.agentsMd.source,
        line: 1,
        column: 1,
        message: `The required prompt of plugin "${plugin.owner || '(root)'}" is ${chars.toLocaleString('en-US')} characters (${shown(parts)}), over the default systemPromptMaxChars (${budget.toLocaleString('en-US')}): every turn it serves, and every sub-agent's, fails with PromptBudgetError`,
      }),
    );
  }
  for (const agent of agents) {
    // Already said of its plugin's chain.
    if (chainOf(agent.owner).some((owner) => over.has(owner))) continue;
    const dir = agent.source.slice(0, agent.source.lastIndexOf('/'));
    const parts = [
      ...chainParts(agent.owner),
      { file: `${dir}/system.md`, chars: agent.system.trim().length },
      { file: `${dir}/boundaries.md`, chars: agent.boundaries.trim().length },
      { file: `${dir}/conventions.md`, chars: agent.conventions.trim().length },
    ];
    const chars = requiredChars(parts);
    if (chars <= budget) continue;
    out.push(
      diag('ZG2033', {
        ...agent.loc,
        message: `The required prompt of agent "${agent.qualifiedName}" is ${chars.toLocaleString('en-US')} characters (${shown(parts)}), over the default systemPromptMaxChars (${budget.toLocaleString('en-US')}): every turn that runs as it fails with PromptBudgetError`,
      }),
    );
  }
  return out;
}
