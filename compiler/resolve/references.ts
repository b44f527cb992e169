/**
 * Reference rule family: skill `tools` and agent.json `tools` must name public (plugin-placed)
 * tools; two platform agents may not be auto-selected for one platform (docs/authoring.md).
 */
import { compareStrings, diag, type Diagnostic } from '../diagnostics.js';
import type { AgentModel, LocatedName, ParsedSkillModel, ToolModel } from '../model.js';
import { LISTED, firstOf, listed } from './conflicts.js';

function skillKey(owner: string, agent: string | undefined, skill: string | undefined): string {
  return `${owner}\0${agent ?? '\u0001'}\0${skill ?? '\u0001'}`;
}

export interface ResolvedReferences {
  readonly diagnostics: Diagnostic[];
  /** Per skill, in the order given: the declared tools that resolved, then the skill's private tools. */
  readonly skillTools: readonly (readonly string[])[];
}

/**
 * `isHostTool` says whether a name the tree does not define is host-provided (declared in the
 * config, or always known); such references resolve, and each one is added to `hostReferenced`.
 */
export function resolveReferences(
  tools: readonly ToolModel[],
  skills: readonly ParsedSkillModel[],
  agents: readonly AgentModel[],
  isHostTool: (name: string) => boolean = () => false,
  hostReferenced: Set<string> = new Set(),
): ResolvedReferences {
  const out: Diagnostic[] = [];
  const skillTools: (readonly string[])[] = [];
  const publicTools = new Set(tools.filter((t) => t.placement === 'plugin').map((t) => t.qualifiedName));
  const definedTools = new Set(tools.map((t) => t.qualifiedName));
  // A name the tree defines is never host-provided: a private tool stays a private-tool error.
  const hostTool = (name: string): boolean => {
    if (definedTools.has(name) || !isHostTool(name)) return false;
    hostReferenced.add(name);
    return true;
  };
  // Only a reference error needs to know which tool a name is, so the map is built then.
  let allTools: Map<string, ToolModel> | undefined;
  const unknown = (name: string, where: string): string => {
    allTools ??= new Map(tools.map((t) => [t.qualifiedName, t]));
    const tool = allTools.get(name);
    return tool
      ? `${where} "${name}", which is a ${tool.placement}-private tool (${tool.source}); only plugin-placed tools can be referenced`
      : `${where} "${name}", which is not the qualifiedName of any public tool, nor declared host-provided (config hostProvided.tools)`;
  };
  // Public tools by local name, for the names zhin.js trees write (a tool of the skill's own
  // plugin by its directory name): built on the first reference that needs it.
  let byLocal: Map<string, ToolModel[]> | undefined;
  const sameLocal = (name: string): readonly ToolModel[] => {
    if (!byLocal) {
      byLocal = new Map();
      for (const t of tools) {
        if (t.placement !== 'plugin') continue;
        const list = byLocal.get(t.localName);
        if (list) list.push(t);
        else byLocal.set(t.localName, [t]);
      }
    }
    return byLocal.get(name) ?? [];
  };
  /**
   * One declared name of a skill or an agent (`owner`: its plugin; `own`: its private tools):
   * the name it resolves to, or undefined after a diagnostic. A name of one of its own private
   * tools (by qualifiedName or, as zhin.js trees write it, by local name) is associated anyway:
   * a warning, not an error whose hint sent authors to declare a host tool that does not exist.
   */
  const resolve = (ref: LocatedName, where: string, owner: string, own: readonly ToolModel[]): string | undefined => {
    const mine = own.find((t) => t.qualifiedName === ref.name || t.localName === ref.name);
    if (publicTools.has(ref.name) || hostTool(ref.name)) {
      // The name is another tool's qualifiedName, and also the local name of a tool of its own
      // plugin (or of its own private one): say which one the name resolves to.
      const local = mine ?? sameLocal(ref.name).find((t) => t.owner === owner && t.qualifiedName !== ref.name);
      if (local && local.qualifiedName !== ref.name)
        out.push(
          diag('ZG3013', {
            ...ref.loc,
            message: `${where} "${ref.name}", which resolves to the tool of that qualifiedName, not to "${local.qualifiedName}" (${local.source}) of the same local name`,
          }),
        );
      return ref.name;
    }
    if (mine) {
      out.push(
        diag('ZG3012', {
          ...ref.loc,
          message: `${where} "${ref.name}", its own private tool "${mine.qualifiedName}" (${mine.source}), which is associated with it without being listed`,
        }),
      );
      return undefined;
    }
    const guesses = sameLocal(ref.name).map((t) => `"${t.qualifiedName}"`);
    const guess = guesses.length > 0 ? `; did you mean ${guesses.join(' or ')}?` : '';
    out.push(diag('ZG3006', { ...ref.loc, message: `${unknown(ref.name, where)}${guess}` }));
    return undefined;
  };
  // Private tools grouped once by their skill or agent: one pass over the tools, not one per skill.
  const privateOf = new Map<string, ToolModel[]>();
  for (const t of tools) {
    if (t.placement === 'plugin') continue;
    const key = t.placement === 'agent' ? skillKey(t.owner, t.agent, '\u0002') : skillKey(t.owner, t.agent, t.skill);
    const list = privateOf.get(key);
    if (list) list.push(t);
    else privateOf.set(key, [t]);
  }
  for (const skill of skills) {
    const own = privateOf.get(skillKey(skill.owner, skill.agent, skill.name)) ?? [];
    const privateTools = own.map((t) => t.qualifiedName).sort(compareStrings);
    const declared: string[] = [];
    for (const ref of skill.declaredTools) {
      const name = resolve(ref, `Skill "${skill.qualifiedName}" lists tool`, skill.owner, own);
      if (name !== undefined) declared.push(name);
    }
    skillTools.push([...new Set([...declared, ...privateTools])]);
  }
  const platformOwners = new Map<string, AgentModel[]>();
  for (const agent of agents) {
    const own = privateOf.get(skillKey(agent.owner, agent.name, '\u0002')) ?? [];
    for (const ref of agent.declaredTools)
      resolve(ref, `agent.json of "${agent.qualifiedName}" lists tool`, agent.owner, own);
    for (const platform of agent.platforms) {
      const list = platformOwners.get(platform.name) ?? [];
      list.push(agent);
      platformOwners.set(platform.name, list);
    }
  }
  for (const [platform, list] of platformOwners) {
    if (list.length < 2) continue;
    // Once per platform, not per agent (quadratic otherwise; see resolve/conflicts.ts).
    const message = `Platform "${platform}" has ${list.length} auto-selected agents: ${listed(list.map((a) => `"${a.qualifiedName}" (${a.source})`))}`;
    const head = list.slice(0, LISTED + 1);
    for (const agent of list) {
      const loc = agent.platforms.find((p) => p.name === platform)!.loc;
      const others = firstOf(head.filter((a) => a !== agent));
      out.push(
        diag('ZG3007', {
          ...loc,
          message,
          related: others.map((o) => ({
            ...o.platforms.find((p) => p.name === platform)!.loc,
            message: `platform agent "${o.qualifiedName}"`,
          })),
        }),
      );
    }
  }
  return { diagnostics: out, skillTools };
}
